import fc from 'fast-check';
import { expect, test } from 'vitest';
import { MessageSequence, PriceLevels, StreamBook, streamedLevels, yesNoViews } from './stream-book.js';
import type { BookSide, SequenceGap } from './stream-book.js';

const at = { timestamp: Date.UTC(2026, 10, 27), sourceMetadata: { source: 'stream' } };

test('levels are kept by price value: a later level at the same price replaces it, size 0 removes it', () => {
  const levels = new PriceLevels<{ price: string; size: string }>();
  expect(levels.set({ price: '0.50', size: '10' })).toBe(true);
  expect(levels.set({ price: '0.5', size: '12.5' })).toBe(true);
  expect(levels.set({ price: '0.4', size: '3' })).toBe(true);
  expect(levels.sorted('descending')).toEqual([
    { price: '0.5', size: '12.5' },
    { price: '0.4', size: '3' },
  ]);
  expect(levels.sizeAt(0.5)).toBe(12.5);
  expect(levels.set({ price: '0.500', size: '0' })).toBe(true);
  expect(levels.sizeAt(0.5)).toBe(0);
  expect(levels.sorted('ascending')).toEqual([{ price: '0.4', size: '3' }]);
  // Removing a price with no level is no change, and no error.
  expect(levels.set({ price: '0.9', size: '0' })).toBe(true);
  expect(levels.count).toBe(1);
});

test('an unreadable level is refused and changes nothing', () => {
  const levels = new PriceLevels();
  levels.set({ price: 0.3, size: 1 });
  for (const bad of [
    { price: Number.NaN, size: 1 },
    { price: 0.3, size: -1 },
    { price: 0.3, size: Number.POSITIVE_INFINITY },
  ]) {
    expect(levels.set(bad)).toBe(false);
  }
  expect(new PriceLevels<{ price: string; size: string }>().set({ price: 'abc', size: '1' })).toBe(false);
  expect(levels.sorted('ascending')).toEqual([{ price: 0.3, size: 1 }]);
});

test('levels changed in any order read out as a sort of the latest level per price value, and a read is a copy', () => {
  const price = fc.constantFrom('0.01', '0.1', '0.10', '0.25', '0.5', '0.50', '0.75', '0.99');
  const size = fc.constantFrom('0', '0.00', '1', '12.5', '300');
  fc.assert(
    fc.property(fc.array(fc.record({ price, size }), { maxLength: 60 }), (changes) => {
      const levels = new PriceLevels<{ price: string; size: string }>();
      const latest = new Map<number, { price: string; size: string }>();
      for (const change of changes) {
        const before = levels.sorted('ascending');
        const copy = structuredClone(before);
        levels.set(change);
        if (Number(change.size) === 0) latest.delete(Number(change.price));
        else latest.set(Number(change.price), change);
        expect(before).toEqual(copy);
        const expected = [...latest.entries()].sort(([a], [b]) => a - b).map(([, level]) => level);
        expect(levels.sorted('ascending')).toEqual(expected);
        expect(levels.sorted('descending')).toEqual(expected.slice().reverse());
        expect(levels.count).toBe(expected.length);
        expect(levels.sizeAt(Number(change.price))).toBe(Number(latest.get(Number(change.price))?.size ?? 0));
      }
    }),
    { numRuns: 300 },
  );
});

test('a streamed side is read row by row into levels (zero sizes dropped); one unreadable row makes the side unreadable', () => {
  const cells = (row: unknown) => (Array.isArray(row) ? ([row[0], row[1]] as const) : undefined);
  expect(
    streamedLevels(
      [
        ['0.42', '13'],
        [0.4, 0],
        ['0.1', '2.5'],
      ],
      cells,
    ),
  ).toEqual([
    { price: 0.42, size: 13 },
    { price: 0.1, size: 2.5 },
  ]);
  expect(streamedLevels([], cells)).toEqual([]);
  for (const bad of [{ rows: [] }, [['0.4', '1'], 'row'], [['1.5', '1']], [['0.4', '-1']], [['abc', '1']]]) expect(streamedLevels(bad, cells)).toBeUndefined();
});

test('a snapshot with empty sides is a known, empty book, and the deltas after it build on it', () => {
  // The shape CI found in the archive's book: a `book` event with no levels, then a `price_change`.
  const book = new StreamBook();
  expect(book.snapshot([], [])).toBe(true);
  expect(book.known).toBe(true);
  expect(book.toOrderBook(at)).toMatchObject({ bids: [], asks: [] });
  expect(book.delta('bids', { price: 0.42, size: 7 })).toBe(true);
  expect(book.toOrderBook(at)).toMatchObject({ bids: [{ price: 0.42, size: 7 }], asks: [], datetime: '2026-11-27T00:00:00.000Z' });
});

test('deltas before any snapshot, or after forget(), are not applied: the book is unknown until the next snapshot', () => {
  const book = new StreamBook();
  expect(book.delta('asks', { price: 0.6, size: 1 })).toBe(false);
  expect(book.known).toBe(false);
  book.snapshot([{ price: 0.4, size: 1 }], [{ price: 0.6, size: 2 }]);
  book.forget();
  expect(book.known).toBe(false);
  expect(book.delta('asks', { price: 0.6, size: 5 })).toBe(false);
  expect(book.toOrderBook(at)).toMatchObject({ bids: [], asks: [] });
  book.snapshot([{ price: 0.45, size: 3 }], []);
  expect(book.toOrderBook(at)).toMatchObject({ bids: [{ price: 0.45, size: 3 }], asks: [] });
});

test('a snapshot with an unreadable level leaves the book unknown rather than wrong', () => {
  const book = new StreamBook();
  book.snapshot([{ price: 0.4, size: 1 }], []);
  expect(book.snapshot([{ price: 0.41, size: 1 }], [{ price: Number.NaN, size: 1 }])).toBe(false);
  expect(book.known).toBe(false);
  expect(book.delta('bids', { price: 0.42, size: 1 })).toBe(false);
});

test('numbered deltas: one out of sequence is not applied, the book becomes unknown and the gap is told once', () => {
  const gaps: SequenceGap[] = [];
  const book = new StreamBook({ onGap: (gap) => gaps.push(gap) });
  book.snapshot([{ price: 0.4, size: 1 }], [], 7);
  expect(book.delta('bids', { price: 0.41, size: 2 }, 8)).toBe(true);
  expect(book.delta('bids', { price: 0.42, size: 3 }, 10)).toBe(false);
  expect(gaps).toEqual([{ expected: 9, received: 10 }]);
  expect(book.known).toBe(false);
  expect(book.delta('bids', { price: 0.43, size: 4 }, 11)).toBe(false);
  expect(gaps).toHaveLength(1);
  // The fresh snapshot starts a new count.
  book.snapshot([{ price: 0.5, size: 1 }], [], 3);
  expect(book.delta('asks', { price: 0.6, size: 1 }, 4)).toBe(true);
  expect(book.toOrderBook(at)).toMatchObject({ bids: [{ price: 0.5, size: 1 }], asks: [{ price: 0.6, size: 1 }] });
});

test('a message sequence starts at the first number taken and starts over after a gap', () => {
  const sequence = new MessageSequence();
  expect(sequence.take(5)).toBeUndefined();
  expect(sequence.take(6)).toBeUndefined();
  expect(sequence.take(6)).toEqual({ expected: 7, received: 6 });
  expect(sequence.take(1)).toBeUndefined();
  sequence.reset();
  expect(sequence.take(40)).toBeUndefined();
});

test('NO is the YES book mirrored, made once for every NO watcher', () => {
  const book = new StreamBook();
  book.snapshot(
    [
      { price: 0.27, size: 1200 },
      { price: 0.26, size: 300 },
    ],
    [{ price: 0.29, size: 500 }],
  );
  const views = yesNoViews(book.toOrderBook(at));
  expect(views('yes')).toMatchObject({ bids: [{ price: 0.27 }, { price: 0.26 }], asks: [{ price: 0.29 }] });
  expect(views('no')).toMatchObject({
    bids: [{ price: 0.71, size: 500 }],
    asks: [
      { price: 0.73, size: 1200 },
      { price: 0.74, size: 300 },
    ],
  });
  expect(views('no')).toBe(views('no'));
  expect(yesNoViews(book.toOrderBook({ ...at, sourceMetadata: { ticker: 'T', side: 'yes' } }))('no').sourceMetadata).toEqual({ ticker: 'T', side: 'no' });
});

/** Prices on a cent grid with a few off-grid spellings, sizes including 0 (a removal). */
const price = fc.integer({ min: 1, max: 99 }).map((cents) => cents / 100);
const size = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 1, max: 5_000 }).map((hundredths) => hundredths / 100),
);
const level = fc.record({ price, size });
const side = fc.constantFrom<BookSide>('bids', 'asks');
const operation = fc.oneof(
  fc.record({ kind: fc.constant('snapshot' as const), bids: fc.array(level, { maxLength: 6 }), asks: fc.array(level, { maxLength: 6 }) }),
  { arbitrary: fc.record({ kind: fc.constant('delta' as const), side, level }), weight: 4 },
  fc.record({ kind: fc.constant('forget' as const) }),
);

test('property: the kept book is the model book (last size per price, zero removed), sorted best first, NO its mirror', () => {
  fc.assert(
    fc.property(fc.array(operation, { maxLength: 40 }), (operations) => {
      const book = new StreamBook();
      let model: Record<BookSide, Map<number, number>> | undefined;
      for (const op of operations) {
        if (op.kind === 'snapshot') {
          model = { bids: new Map(), asks: new Map() };
          for (const [name, levels] of [
            ['bids', op.bids],
            ['asks', op.asks],
          ] as const) {
            for (const { price: p, size: s } of levels) {
              if (s === 0) model[name].delete(p);
              else model[name].set(p, s);
            }
          }
          expect(book.snapshot(op.bids, op.asks)).toBe(true);
        } else if (op.kind === 'delta') {
          expect(book.delta(op.side, op.level)).toBe(model !== undefined);
          if (model && op.level.size === 0) model[op.side].delete(op.level.price);
          else if (model) model[op.side].set(op.level.price, op.level.size);
        } else {
          book.forget();
          model = undefined;
        }
        expect(book.known).toBe(model !== undefined);
        const kept = book.toOrderBook(at);
        const expected = (levels: Map<number, number> | undefined, order: 1 | -1) =>
          [...(levels ?? [])].map(([p, s]) => ({ price: p, size: s })).sort((a, b) => order * (a.price - b.price));
        expect(kept.bids).toEqual(expected(model?.bids, -1));
        expect(kept.asks).toEqual(expected(model?.asks, 1));
        const no = yesNoViews(kept)('no');
        expect(no.bids.map((l) => [Math.round((1 - l.price) * 100), l.size])).toEqual(kept.asks.map((l) => [Math.round(l.price * 100), l.size]));
        expect(no.asks.map((l) => [Math.round((1 - l.price) * 100), l.size])).toEqual(kept.bids.map((l) => [Math.round(l.price * 100), l.size]));
      }
    }),
    { numRuns: 100 },
  );
});
