import { describe, expect, test } from 'vitest';
import { directionOf } from './direction.js';
import { normalizeFill } from './trades.js';

describe('order and fill direction', () => {
  test('the deprecated side and action say what the account asked for', () => {
    expect(directionOf({ side: 'yes', action: 'sell', outcome_side: 'no', book_side: 'ask' })).toEqual({ contract: 'yes', action: 'sell' });
  });

  test('once they are gone, a YES bid or a NO ask is a buy of that contract', () => {
    expect(directionOf({ outcome_side: 'yes', book_side: 'bid' })).toEqual({ contract: 'yes', action: 'buy' });
    expect(directionOf({ outcome_side: 'no', book_side: 'ask' })).toEqual({ contract: 'no', action: 'buy' });
    expect(directionOf({ outcome_side: 'yes', book_side: 'ask' })).toEqual({ contract: 'yes', action: 'sell' });
    expect(directionOf({ outcome_side: 'no' })).toEqual({ contract: 'no' });
    expect(directionOf({})).toBeUndefined();
  });

  test('a fill without a direction is side unknown, priced as YES', () => {
    expect(normalizeFill({ fill_id: 'f', ticker: 'KX-1', count_fp: '1.00', yes_price_dollars: '0.2000', created_time: '2026-05-14T00:00:00Z' })).toMatchObject({
      side: 'unknown',
      outcomeId: 'KX-1',
      price: 0.2,
    });
  });

  test('a legacy fill: cents, integer count, Unix seconds', () => {
    expect(normalizeFill({ trade_id: 't', ticker: 'KX-1', side: 'no', action: 'buy', count: 3, no_price: 61, ts: 1_778_000_000 })).toEqual({
      id: 't',
      timestamp: 1_778_000_000_000,
      price: 0.61,
      amount: 3,
      side: 'buy',
      outcomeId: 'KX-1-NO',
      marketId: 'KX-1',
    });
  });
});
