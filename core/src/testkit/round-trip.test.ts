import { describe, expect, test } from 'vitest';
import { withBinaryRefs } from '../behaviour/binary-outcomes.js';
import { normalizeOrderBook } from '../behaviour/order-book.js';
import { PredgateError } from '../errors.js';
import type { VenueAdapter } from '../methods/adapter.js';
import type { Event, OrderBook } from '../model/index.js';
import { checkRoundTrip } from './round-trip.js';

const profile = { displayName: 'Tiny', hosts: { api: 'https://tiny.test' }, rateLimit: null, credentials: { required: [], optional: [] } };
const market = withBinaryRefs({
  marketId: 'm1',
  eventId: 'e1',
  title: 'Will it rain?',
  description: '',
  outcomes: [
    { outcomeId: 'm1-yes', marketId: 'm1', label: 'Yes', price: 0.4 },
    { outcomeId: 'm1-no', marketId: 'm1', label: 'No', price: 0.6 },
  ],
  volume24h: 10,
  liquidity: 5,
  url: 'https://tiny.test/m1',
});
const event: Event = { id: 'e1', title: 'Will it rain?', description: '', slug: 'will-it-rain', volume24h: 10, url: 'https://tiny.test/e1', markets: [market] };
const books: Record<string, OrderBook> = {
  'm1-yes': normalizeOrderBook({ bids: [{ price: 0.39, size: 10 }], asks: [{ price: 0.41, size: 10 }], timestamp: 1 }),
  'm1-no': normalizeOrderBook({ bids: [{ price: 0.59, size: 10 }], asks: [{ price: 0.61, size: 10 }], timestamp: 1 }),
};

/** A venue with a book per outcome; `broken` changes one behaviour so the law has something to catch. */
function tinyAdapter(broken?: 'bare-id' | 'yes-for-no' | 'refuses'): VenueAdapter {
  return {
    id: 'tiny',
    profile,
    fetchEvents: async () => [event],
    fetchOrderBook: async (id, _limit, params) => {
      if (broken === 'refuses' && params?.outcome) throw new PredgateError('NOT_SUPPORTED', 'by outcome id only');
      if (params?.outcome === 'yes' || params?.outcome === 'no') {
        // The pmxt bug: the YES book handed out for NO.
        return books[broken === 'yes-for-no' ? 'm1-yes' : `m1-${params.outcome}`]!;
      }
      if (broken === 'bare-id' && id === 'm1-yes') throw new PredgateError('VALIDATION_ERROR', '"params.side" is required');
      return books[params?.outcome ?? id]!;
    },
  };
}

describe('the round-trip law', () => {
  test('holds on an adapter that accepts back every id it hands out', async () => {
    expect(await checkRoundTrip(tinyAdapter())).toEqual([]);
  });

  test('names the method and the id an adapter refuses with a validation error', async () => {
    const violations = await checkRoundTrip(tinyAdapter('bare-id'));
    expect(violations).toContainEqual(expect.stringContaining('fetchOrderBook("m1-yes") failed: VALIDATION_ERROR'));
  });

  test('catches a market-and-side book that is not the outcome’s book', async () => {
    const violations = await checkRoundTrip(tinyAdapter('yes-for-no'));
    expect(violations).toEqual(['fetchOrderBook("m1", null, { outcome: "no" }) is not the book of no outcome "m1-no"']);
  });

  test('accepts an honest NOT_SUPPORTED refusal', async () => {
    expect(await checkRoundTrip(tinyAdapter('refuses'))).toEqual([]);
  });

  test('checks the lookups core derives: fetchEvent by id and slug, fetchMarket by id', async () => {
    const lost: VenueAdapter = { ...tinyAdapter(), fetchMarket: async () => ({ ...market, marketId: 'm2' }) };
    expect(await checkRoundTrip(lost)).toEqual(['fetchMarket({ marketId: "m1" }) returned marketId "m2", not "m1"']);
  });
});
