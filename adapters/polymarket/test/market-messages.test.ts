import { expect, test } from 'vitest';
import { readMarketFrame, UnreadableMessage } from '../src/streams/index.js';

test('a price_change message becomes one row per entry, each with its own token, decimals kept as text', () => {
  const { rows } = readMarketFrame(
    JSON.stringify({
      market: '0xm',
      price_changes: [
        { asset_id: 'a', price: '0.982', size: '0', side: 'SELL', hash: 'h', best_bid: '0.97', best_ask: '' },
        { asset_id: 'b', price: '0.018', size: '12.5', side: 'BUY', hash: 'h2', best_bid: '0.018', best_ask: '0.03' },
      ],
      timestamp: '1790658674035',
      event_type: 'price_change',
    }),
    1790658674100,
  );
  expect(rows).toEqual([
    {
      receivedAt: 1790658674100,
      timestamp: 1790658674035,
      market: '0xm',
      eventType: 'price_change',
      assetId: 'a',
      price: '0.982',
      size: '0',
      side: 'SELL',
      bestBid: '0.97',
    },
    {
      receivedAt: 1790658674100,
      timestamp: 1790658674035,
      market: '0xm',
      eventType: 'price_change',
      assetId: 'b',
      price: '0.018',
      size: '12.5',
      side: 'BUY',
      bestBid: '0.018',
      bestAsk: '0.03',
    },
  ]);
});

test('frames the channel cannot mean are refused by field, not guessed', () => {
  const unreadable = (frame: unknown) => {
    try {
      const read = readMarketFrame(JSON.stringify(frame), 1);
      return read.unreadable.length > 0 ? read.unreadable[0]!.field : 'accepted';
    } catch (error) {
      return error instanceof UnreadableMessage ? error.field : 'other error';
    }
  };
  expect(unreadable({ event_type: 'price_change', market: 'm', price_changes: [{ asset_id: 'a', price: '0.5', size: '1', side: 'HOLD' }] })).toBe('side');
  expect(unreadable({ event_type: 'price_change', market: 'm', price_changes: [{ asset_id: 'a', price: 'abc', size: '1', side: 'BUY' }] })).toBe('price');
  expect(unreadable({ event_type: 'order_fill', market: 'm' })).toBe('event_type');
  expect(unreadable({ event_type: 'book', market: 'm', asset_id: 'a', bids: 'none' })).toBe('bids');
  expect(unreadable({ event_type: 'tick_size_change', market: 'm', asset_id: 'a', old_tick_size: '0.01' })).toBe('new_tick_size');
});

test('snapshots without event_type (buys/sells) are books; lifecycle announcements name each token', () => {
  const [book] = readMarketFrame(
    JSON.stringify([{ market: 'm', asset_id: 'a', timestamp: '1790658674', buys: [{ price: '0.4', size: '1' }], sells: [] }]),
    5,
  ).rows;
  expect(book).toMatchObject({ eventType: 'book', timestamp: 1790658674000, bids: [{ price: '0.4', size: '1' }], asks: [] });
  const resolved = readMarketFrame(JSON.stringify({ event_type: 'market_resolved', market: 'm', assets_ids: ['a', 'b'], timestamp: '1790658674035' }), 5).rows;
  expect(resolved.map((row) => [row.eventType, row.assetId])).toEqual([
    ['market_resolved', 'a'],
    ['market_resolved', 'b'],
  ]);
});

test('a frame keeps every message it can read: a price_change beside a message of an unknown type is kept, the other reported', () => {
  const frame = readMarketFrame(
    JSON.stringify([
      { event_type: 'order_fill', market: 'm', asset_id: 'a' },
      { event_type: 'price_change', market: 'm', timestamp: '1790658674035', price_changes: [{ asset_id: 'a', price: '0.40', size: '7', side: 'BUY' }] },
    ]),
    9,
  );
  expect(frame.rows).toEqual([
    { receivedAt: 9, timestamp: 1790658674035, market: 'm', eventType: 'price_change', assetId: 'a', price: '0.40', size: '7', side: 'BUY' },
  ]);
  expect(frame.unreadable.map((error) => error.field)).toEqual(['event_type']);
  expect(() => readMarketFrame('{not json', 9)).toThrow(UnreadableMessage);
});

test('a message with an unreadable entry is left out whole, with the rows read before the entry; the messages around it are kept', () => {
  const frame = readMarketFrame(
    JSON.stringify([
      { event_type: 'last_trade_price', market: 'm', asset_id: 'a', price: '0.41', timestamp: '1790658674000' },
      {
        event_type: 'price_change',
        market: 'm',
        timestamp: '1790658674035',
        price_changes: [
          { asset_id: 'a', price: '0.40', size: '7', side: 'BUY' },
          { asset_id: 'b', price: '0.60', size: 'lots', side: 'SELL' },
        ],
      },
      { event_type: 'tick_size_change', market: 'm', asset_id: 'b', new_tick_size: '0.001', timestamp: '1790658674040' },
    ]),
    9,
  );
  expect(frame.rows.map((row) => [row.eventType, row.assetId])).toEqual([
    ['last_trade_price', 'a'],
    ['tick_size_change', 'b'],
  ]);
  expect(frame.unreadable.map((error) => error.field)).toEqual(['size']);
});
