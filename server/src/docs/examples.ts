import { adapterMethod } from '@predgate/core';
import type { Event } from '@predgate/core';
import type { Venue } from '../venues/venue.js';
import type { Examples } from './openapi.js';

/** The document's examples: real answers of the simulated `mock` venue, kept small. */
export async function mockExamples(venues: readonly Venue[]): Promise<Examples> {
  const mock = venues.find((venue) => venue.id === 'mock');
  if (!mock) return {};
  const call = (name: string, ...args: unknown[]) => adapterMethod(mock.shared, name)?.(...args) as Promise<unknown> | undefined;
  const [event] = ((await call('fetchEvents', { limit: 1 })) ?? []) as Event[];
  const market = event?.markets[0];
  const outcome = market?.outcomes[0];
  const examples: Examples = { describe: mock.describe() };
  if (event) examples.fetchEvents = [event];
  if (event) examples.fetchEvent = event;
  if (market) examples.fetchMarkets = [market];
  if (market) examples.fetchMarket = market;
  if (event && market && outcome) {
    // Real ids for the query parameters, so a generated client's first call finds something.
    examples.arguments = {
      outcomeId: outcome.outcomeId,
      outcomeIds: [outcome.outcomeId],
      marketId: market.marketId,
      eventId: event.id,
      eventTicker: event.id,
      slug: event.slug,
      query: event.title.split(' ')[0],
      limit: 5,
    };
  }
  if (outcome) {
    examples.fetchOrderBook = await call('fetchOrderBook', outcome.outcomeId, 3);
    examples.fetchTrades = await call('fetchTrades', outcome.outcomeId, { limit: 3 });
    examples.fetchOHLCV = await call('fetchOHLCV', outcome.outcomeId, { resolution: '1h', limit: 3 });
  }
  return examples;
}
