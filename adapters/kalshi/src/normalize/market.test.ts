import { describe, expect, test } from 'vitest';
import type { RawMarket } from '../api/types.js';
import { normalizeMarket, yesPriceOf } from './market.js';

const origin = { exchange: 'kalshi', web: 'https://kalshi.com' };
const market = (fields: Partial<RawMarket>): RawMarket => ({ ticker: 'KX-26-A', event_ticker: 'KX-26', ...fields });

describe('the YES price', () => {
  test.each([
    ['the last trade', { last_price_dollars: '0.4200', yes_bid_dollars: '0.4000', yes_ask_dollars: '0.4500' }, 0.42],
    ['the middle of the quote when never traded', { last_price_dollars: '0.0000', yes_bid_dollars: '0.4000', yes_ask_dollars: '0.4500' }, 0.425],
    ['the ask when there is no bid', { last_price_dollars: '0.0000', yes_bid_dollars: '0.0000', yes_ask_dollars: '0.0300' }, 0.03],
    ['0 without trades or quotes', { last_price_dollars: '0.0000', yes_bid_dollars: '0.0000', yes_ask_dollars: '0.0000' }, 0],
    ['legacy cents', { last_price: 37 }, 0.37],
    ['legacy cents, quote only', { last_price: 0, yes_bid: 20, yes_ask: 30 }, 0.25],
    ['the dollar field over the cent field', { last_price_dollars: '0.5100', last_price: 49 }, 0.51],
    ['the settlement value once determined', { status: 'determined', last_price_dollars: '0.9700', settlement_value_dollars: '1.0000' }, 1],
    ['the result when the settlement value is missing', { status: 'finalized', last_price_dollars: '0.0200', result: 'no' }, 0],
    ['the last trade while merely closed', { status: 'closed', last_price_dollars: '0.9700', result: '' }, 0.97],
  ])('%s', (_name, fields, price) => {
    expect(yesPriceOf(market(fields))).toBe(price);
  });
});

describe('markets', () => {
  test('labels: a `::` placeholder or an empty subtitle means none, so the outcomes are Yes and No', () => {
    for (const yes_sub_title of ['::', '  ', '']) {
      const unified = normalizeMarket(market({ yes_sub_title, last_price_dollars: '0.3000' }), {}, origin);
      expect(unified.outcomes.map((outcome) => outcome.label)).toEqual(['Yes', 'No']);
      expect(unified.yes?.outcomeId).toBe('KX-26-A');
      expect(unified.no?.outcomeId).toBe('KX-26-A-NO');
    }
  });

  test('the tick is the step of the price range holding the price', () => {
    const price_ranges = [
      { start: '0.0000', end: '0.1000', step: '0.0010' },
      { start: '0.1000', end: '0.9000', step: '0.0100' },
      { start: '0.9000', end: '1.0000', step: '0.0010' },
    ];
    expect(normalizeMarket(market({ price_ranges, last_price_dollars: '0.0450' }), {}, origin).tickSize).toBe(0.001);
    expect(normalizeMarket(market({ price_ranges, last_price_dollars: '0.4500' }), {}, origin).tickSize).toBe(0.01);
    expect(normalizeMarket(market({ tick_size: 1 }), {}, origin).tickSize).toBe(0.01);
    expect(normalizeMarket(market({}), {}, origin).tickSize).toBeUndefined();
  });

  test.each([
    ['initialized', 'inactive'],
    ['active', 'active'],
    ['inactive', 'inactive'],
    ['closed', 'closed'],
    ['determined', 'closed'],
    ['disputed', 'closed'],
    ['amended', 'closed'],
    ['finalized', 'resolved'],
  ])('status %s is %s', (status, unified) => {
    expect(normalizeMarket(market({ status }), {}, origin).status).toBe(unified);
  });

  test('an unknown status is left out rather than guessed', () => {
    expect(normalizeMarket(market({ status: 'halted' }), {}, origin)).not.toHaveProperty('status');
  });

  test('a market with almost nothing still reads: no undefined members', () => {
    const unified = normalizeMarket({ ticker: 'KX-1' }, {}, origin);
    expect(Object.values(unified).includes(undefined)).toBe(false);
    expect(unified).toMatchObject({ marketId: 'KX-1', eventId: 'KX-1', title: 'KX-1', description: '', volume24h: 0, liquidity: 0 });
  });
});
