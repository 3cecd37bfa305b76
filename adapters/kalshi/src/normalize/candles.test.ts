import { describe, expect, test } from 'vitest';
import { aggregateCandles, mirrorCandle, normalizeCandle } from './candles.js';

describe('candles', () => {
  test('a period without trades and without quotes stays flat at the previous price', () => {
    expect(normalizeCandle({ end_period_ts: 3_600, price: { previous_dollars: '0.4100' } }, 3_600)).toEqual({
      timestamp: 0,
      open: 0.41,
      high: 0.41,
      low: 0.41,
      close: 0.41,
    });
  });

  test('null legacy members count as no trade: the quotes carry the candle', () => {
    const candle = normalizeCandle(
      { end_period_ts: 120, volume: 0, price: { open: null, close: null, previous: 40 }, yes_bid: { close: 50 }, yes_ask: { close: 54 } },
      60,
    );
    expect(candle).toEqual({ timestamp: 60_000, open: 0.52, high: 0.52, low: 0.52, close: 0.52, volume: 0 });
  });

  test('an empty price object and nothing else is a candle at 0', () => {
    expect(normalizeCandle({ end_period_ts: 60, price: {} }, 60)).toMatchObject({ open: 0, high: 0, low: 0, close: 0 });
  });

  test('the NO candle swaps high and low', () => {
    expect(mirrorCandle({ timestamp: 0, open: 0.3, high: 0.45, low: 0.25, close: 0.4 })).toEqual({
      timestamp: 0,
      open: 0.7,
      high: 0.75,
      low: 0.55,
      close: 0.6,
    });
  });

  test('aggregation aligns buckets on the epoch, in time order whatever the input order', () => {
    const minute = (start: number, open: number, close: number, volume: number) => ({
      timestamp: start * 60_000,
      open,
      high: Math.max(open, close),
      low: Math.min(open, close),
      close,
      volume,
    });
    const built = aggregateCandles([minute(6, 0.5, 0.55, 1), minute(4, 0.4, 0.45, 2), minute(5, 0.45, 0.5, 3)], 5 * 60_000);
    expect(built).toEqual([
      { timestamp: 0, open: 0.4, high: 0.45, low: 0.4, close: 0.45, volume: 2 },
      { timestamp: 300_000, open: 0.45, high: 0.55, low: 0.45, close: 0.55, volume: 4 },
    ]);
  });
});
