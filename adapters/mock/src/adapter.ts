import { bindContext, defineAdapter, orderControls } from '@predgate/core';
import type { AdapterContext, VenueProfile } from '@predgate/core';
import {
  buildOrder,
  cancelOrder,
  createOrder,
  fetchAllOrders,
  fetchBalance,
  fetchClosedOrders,
  fetchMyTrades,
  fetchOpenOrders,
  fetchOrder,
  fetchPositions,
  submitOrder,
} from './account/orders.js';
import type { MockConfig } from './config.js';
import { venueId } from './venue.js';
import type { MockContext } from './context.js';
import { fetchEventMetadata, fetchEvents, fetchEventsPaginated, fetchMarkets, fetchMarketsPaginated, fetchSeries } from './reads/catalog.js';
import { fetchOHLCV, fetchOrderBook, fetchOrderBooks, fetchTrades, watchOrderBook, watchTrades } from './reads/market-data.js';
import { SimulatedAccount } from './simulation/account.js';
import { bookOf, simulatedVenue } from './simulation/venue.js';

const profile: VenueProfile = {
  displayName: 'Mock (simulated venue)',
  hosts: { web: 'https://mock.predgate.dev' },
  rateLimit: null,
  // No credentials are needed: each distinct credentials object simply gets its own simulated account.
  credentials: { required: [], optional: ['apiKey'] },
  // The venue's own category names, by the normalised category each means: the catalog files its events by them.
  categoryWords: { Politics: ['world'], Economics: ['economy'], Science: ['tech'], Culture: ['pop culture'] },
  // Simulated, every one: the book decides crossing, fills and slippage; expiry is checked at submit.
  orderControls: [...orderControls],
};

/**
 * The simulated venue. A real adapter has the same shape: read methods that
 * call the venue and normalise its answers, account methods that sign their
 * calls with `context.credentials`, and the shared behaviour of
 * `@predgate/core` (lookups, filters, execution price) wherever the venue has
 * nothing better. Here the "venue" is the simulation in `./simulation`.
 */
export function createMockAdapter(context: AdapterContext, config: MockConfig) {
  const { clock } = context;
  const venue = simulatedVenue(config, clock);
  const ctx: MockContext = {
    venue,
    account: new SimulatedAccount(venue, (outcomeId) => bookOf(venue, outcomeId), clock, config.startingCash),
    clock,
    tickMs: config.tickMs,
  };

  return defineAdapter({
    id: venueId,
    profile,
    // Built from the simulation's other answers; fetchEvent, fetchMarket, the filters and the execution
    // price come from @predgate/core, which builds them for every adapter that lists events and markets.
    emulated: ['fetchEventsPaginated', 'fetchMarketsPaginated', 'fetchOrderBooks'],
    ...bindContext(ctx, {
      // Catalog reads
      fetchEvents,
      fetchEventsPaginated,
      fetchMarkets,
      fetchMarketsPaginated,
      fetchEventMetadata,
      fetchSeries,
      // Market data, and its simulated streams
      fetchOrderBook,
      fetchOrderBooks,
      fetchTrades,
      fetchOHLCV,
      watchOrderBook,
      watchTrades,
      // Account
      createOrder,
      buildOrder,
      submitOrder,
      cancelOrder,
      fetchOrder,
      fetchOpenOrders,
      fetchClosedOrders,
      fetchAllOrders,
      fetchMyTrades,
      fetchPositions,
      fetchBalance,
    }),
  });
}

export type MockAdapter = ReturnType<typeof createMockAdapter>;
