import { BookState } from '@predgate/adapter-polymarket/streams';
import type { MarketRow } from '@predgate/adapter-polymarket/streams';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { ReplayBook } from '../src/replay-book.js';

const assetId = '42';
const price = fc.constantFrom('0.01', '0.1', '0.10', '0.25', '0.5', '0.50', '0.75', '0.99');
const size = fc.constantFrom('0', '0.00', '1', '12.5', '300');
const level = fc.record({ price, size });
const base = (receivedAt: number, timestamp: number, tokenId: string) => ({ receivedAt, timestamp, market: `0x${'1'.repeat(64)}`, assetId: tokenId });
const row: fc.Arbitrary<MarketRow> = fc
  .tuple(
    fc.nat(1_000),
    fc.nat(1_000),
    fc.constantFrom(assetId, assetId, assetId, '43'),
    fc.nat(3),
    level,
    fc.array(level, { maxLength: 8 }),
    fc.array(level, { maxLength: 8 }),
  )
  .map(([receivedAt, timestamp, tokenId, kind, change, bids, asks]): MarketRow => {
    const common = base(receivedAt, timestamp, tokenId);
    if (kind === 0) return { ...common, eventType: 'book', bids, asks, newTickSize: '0.01', price: change.price };
    if (kind === 1) return { ...common, eventType: 'price_change', price: change.price, size: change.size, side: receivedAt % 2 === 0 ? 'BUY' : 'SELL' };
    if (kind === 2) return { ...common, eventType: 'last_trade_price', price: change.price };
    return { ...common, eventType: 'tick_size_change', oldTickSize: '0.01', newTickSize: '0.001' };
  });

test("the replay book, levels kept sorted as they change, gives BookState's book after every row, from nothing or from a snapshot", () => {
  fc.assert(
    fc.property(fc.array(row, { maxLength: 60 }), fc.nat(60), (rows, split) => {
      const reference = new BookState(assetId);
      const replay = ReplayBook.empty(assetId);
      let resumed: ReplayBook | undefined;
      rows.forEach((next, index) => {
        if (index === split && reference.known) resumed = ReplayBook.from(reference.snapshot());
        reference.apply(next);
        replay.apply(next);
        resumed?.apply(next);
        expect(replay.known).toBe(reference.known);
        expect(replay.timestamp).toBe(reference.timestamp);
        expect(replay.snapshot()).toEqual(reference.snapshot());
        if (resumed) expect(resumed.snapshot()).toEqual(reference.snapshot());
      });
    }),
    { numRuns: 300 },
  );
});

test('a book read out is a copy: later changes do not reach it', () => {
  const replay = ReplayBook.empty(assetId);
  replay.apply({ ...base(1, 1, assetId), eventType: 'book', bids: [{ price: '0.40', size: '10' }], asks: [] });
  const before = replay.snapshot();
  replay.apply({ ...base(2, 2, assetId), eventType: 'price_change', price: '0.41', size: '5', side: 'BUY' });
  expect(before.bids).toEqual([{ price: '0.40', size: '10' }]);
  expect(replay.snapshot().bids).toEqual([
    { price: '0.40', size: '10' },
    { price: '0.41', size: '5' },
  ]);
});
