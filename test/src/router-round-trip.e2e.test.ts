import type { Event, Market } from '@predgate/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gateway } from './support.js';
import type { Gateway } from './support.js';

/**
 * The round-trip law across the Router: every id it hands out is accepted
 * back by the Router itself, and the venue-native ids inside a Router event
 * lead back to the live venue calls. A Router event carries its venue's event
 * id as `sourceMetadata.venueEventId` and its venue as `sourceExchange`; its
 * markets keep the venue's own `marketId` and outcome ids.
 */
let app: Gateway;
beforeAll(async () => {
  app = await gateway({ manifest: { venues: [{ id: 'mock', package: '@predgate/adapter-mock', version: '^0.1.0', config: { events: 200 } }] } });
  await app.catalog.sweep('mock');
});
afterAll(() => app.stop());

const data = async <T>(url: string): Promise<T> => {
  const response = await app.call({ url });
  expect(response.statusCode, `${url}: ${response.payload.slice(0, 300)}`).toBe(200);
  return (JSON.parse(response.payload) as { data: T }).data;
};

describe('every id the Router hands out is accepted back', () => {
  test('by the Router: /v0/events/{id}, /api/router/fetchEvent and /api/router/fetchMarket', async () => {
    const events = await data<Event[]>('/v0/events?limit=5');
    expect(events.length).toBe(5);
    for (const event of events) {
      expect((await data<Event>(`/v0/events/${event.id}`)).id).toBe(event.id);
      expect((await data<Event>(`/api/router/fetchEvent?eventId=${event.id}`)).id).toBe(event.id);
      for (const market of event.markets) {
        const found = await data<Market>(`/api/router/fetchMarket?marketId=${encodeURIComponent(market.marketId)}`);
        expect(found.marketId).toBe(market.marketId);
        expect(found.eventId).toBe(event.id);
      }
    }
  });

  test('by the venue: the venue-native ids inside a Router event lead to the live calls', async () => {
    const [event] = await data<Event[]>('/v0/events?limit=1');
    const venue = event!.sourceExchange!;
    const venueEventId = String(event!.sourceMetadata!.venueEventId);
    const native = await data<Event>(`/api/${venue}/fetchEvent?eventId=${encodeURIComponent(venueEventId)}`);
    expect(native.id).toBe(venueEventId);
    expect(native.markets.map((market) => market.marketId)).toEqual(event!.markets.map((market) => market.marketId));
    for (const market of event!.markets) {
      expect((await data<Market>(`/api/${venue}/fetchMarket?marketId=${encodeURIComponent(market.marketId)}`)).marketId).toBe(market.marketId);
      for (const outcome of market.outcomes) {
        const book = await data<{ bids: unknown[] }>(`/api/${venue}/fetchOrderBook?outcomeId=${encodeURIComponent(outcome.outcomeId)}`);
        expect(Array.isArray(book.bids)).toBe(true);
      }
    }
  });
});
