import fc from 'fast-check';
import { expect, test } from 'vitest';
import { BookState } from '@predgate/adapter-polymarket/streams';
import type { BookSnapshot, MarketRow } from '@predgate/adapter-polymarket/streams';

// The journal writes each checkpoint with the book's own JSON text (`BookState.writeJson`): it must be exactly the snapshot's JSON,
// and its levels must be what a plain model of the rows says (one level per numeric price, latest text, size 0 removes).
const asset = '7123';
const cents = fc.integer({ min: 1, max: 99 });
// "0.5" and "0.50" are one price: the latest text is kept.
const price = fc.tuple(cents, fc.boolean()).map(([value, padded]) => (padded ? (value / 100).toFixed(3) : String(value / 100)));
const size = fc.oneof(
  fc.constant('0'),
  fc.integer({ min: 1, max: 90_000 }).map((value) => (value / 100).toFixed(2)),
);
const level = fc.record({ price, size: size.filter((text) => text !== '0') });

const step = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('book' as const), bids: fc.array(level, { maxLength: 12 }), asks: fc.array(level, { maxLength: 12 }) }),
  },
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('price_change' as const), price, size, side: fc.constantFrom('BUY' as const, 'SELL' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tick_size_change' as const), tick: fc.constantFrom('0.01', '0.001') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('last_trade_price' as const), price }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('gap' as const), from: fc.integer({ min: 0, max: 1_000 }), length: fc.integer({ min: 1, max: 1_000 }) }),
  },
  // A market id with characters JSON escapes: the book's JSON must escape it as JSON.stringify does.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('market' as const), market: fc.string({ maxLength: 8 }) }) },
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

function rowOf(entry: Exclude<Step, { kind: 'gap' }>, index: number): MarketRow {
  const base = { receivedAt: 1_000 + index, timestamp: 2_000 + index, market: '0xm', assetId: asset };
  switch (entry.kind) {
    case 'book':
      return { ...base, eventType: 'book', bids: entry.bids, asks: entry.asks };
    case 'price_change':
      return { ...base, eventType: 'price_change', price: entry.price, size: entry.size, side: entry.side };
    case 'tick_size_change':
      return { ...base, eventType: 'tick_size_change', newTickSize: entry.tick };
    case 'last_trade_price':
      return { ...base, eventType: 'last_trade_price', price: entry.price };
    case 'market':
      return { ...base, eventType: 'tick_size_change', market: entry.market, newTickSize: '0.01' };
  }
}

/** The model of one side: numeric price to the latest level text. */
function applyLevel(side: Map<number, { price: string; size: string }>, price: string, size: string): void {
  if (Number(size) === 0) side.delete(Number(price));
  else side.set(Number(price), { price, size });
}

function sortedLevels(side: Map<number, { price: string; size: string }>, order: 'ascending' | 'descending') {
  const prices = [...side.keys()].sort((a, b) => (order === 'ascending' ? a - b : b - a));
  return prices.map((key) => side.get(key)!);
}

/** The book's JSON as its `writeJson` writes it, after a few bytes already in the buffer (a journal's earlier lines). */
function jsonOf(book: BookState): string {
  const target = Buffer.alloc(1 << 16, 'x');
  const end = book.writeJson(target, 3);
  expect(target.toString('latin1', 0, 3)).toBe('xxx');
  return target.toString('utf8', 3, end);
}

test("a book's JSON text is its snapshot's JSON, with the levels the rows leave", () => {
  fc.assert(
    fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
      const book = new BookState(asset);
      const bids = new Map<number, { price: string; size: string }>();
      const asks = new Map<number, { price: string; size: string }>();
      steps.forEach((entry, index) => {
        if (entry.kind === 'gap') book.markGap({ from: entry.from, to: entry.from + entry.length });
        else book.apply(rowOf(entry, index));
        if (entry.kind === 'book') {
          bids.clear();
          asks.clear();
          for (const { price: at, size: amount } of entry.bids) applyLevel(bids, at, amount);
          for (const { price: at, size: amount } of entry.asks) applyLevel(asks, at, amount);
        }
        if (entry.kind === 'price_change') applyLevel(entry.side === 'BUY' ? bids : asks, entry.price, entry.size);
        const snapshot = book.snapshot();
        const text = JSON.stringify(snapshot);
        expect(jsonOf(book)).toBe(text);
        // Written at an offset into a buffer one byte too short, it reports that it does not fit.
        const tooShort = Buffer.alloc(index + Buffer.byteLength(text) - 1);
        expect(book.writeJson(tooShort, index)).toBe(-1);
        expect(snapshot.bids).toEqual(sortedLevels(bids, 'ascending'));
        expect(snapshot.asks).toEqual(sortedLevels(asks, 'descending'));
        // A book read back from its JSON (as a journal's checkpoint is) writes the same text.
        expect(jsonOf(BookState.from(JSON.parse(jsonOf(book)) as BookSnapshot))).toBe(jsonOf(book));
      });
    }),
    { numRuns: Number(process.env.FC_RUNS ?? 200), ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
  );
});

test('a level whose text is not a plain decimal is refused and changes nothing', () => {
  const book = new BookState(asset);
  book.apply({ receivedAt: 1, timestamp: 1, market: '0xm', eventType: 'book', assetId: asset, bids: [{ price: '0.4', size: '10' }], asks: [] });
  for (const [price, size] of [
    [' 0.4', '5'],
    ['0.4', '5\n'],
    ['0.4"', '5'],
    ['', '5'],
    ['0.4', '-'],
  ] as const)
    book.apply({ receivedAt: 2, timestamp: 2, market: '0xm', eventType: 'price_change', assetId: asset, price, size, side: 'BUY' });
  expect(book.snapshot().bids).toEqual([{ price: '0.4', size: '10' }]);
  expect(JSON.parse(jsonOf(book))).toEqual(book.snapshot());
});
