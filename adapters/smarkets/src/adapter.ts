import { bindContext, defineAdapter } from '@predgate/core';
import type { AdapterContext } from '@predgate/core';
import { fetchBalance } from './account/balance.js';
import { cancelOrder, createOrder, fetchAllOrders, fetchClosedOrders, fetchOpenOrders, fetchOrder } from './account/orders.js';
import { fetchMyTrades } from './account/trades.js';
import { smarketsApi } from './api/client.js';
import { SessionTokens } from './auth/session.js';
import type { SmarketsConfig } from './config.js';
import { credentialMembers, venueId } from './venue.js';
import type { SmarketsContext } from './context.js';
import { mapError } from './errors.js';
import { fetchEvents, fetchEventsPaginated } from './reads/events.js';
import { fetchMarkets } from './reads/markets.js';
import { fetchOrderBook } from './reads/order-book.js';

/** The events API allows 1,200 requests a minute; quotes 50 a minute, spent only on book reads. */
const rateLimit = { requests: 20, intervalMs: 1_000 };

/**
 * Smarkets: events, their markets, and the markets' contracts (the unified
 * outcomes, each with its own book). Account calls, and live rather than
 * delayed quotes, use a session token logged in with the account's e-mail
 * (`apiKey`) and password (`privateKey`).
 */
export function createSmarketsAdapter(context: AdapterContext, config: SmarketsConfig) {
  const api = smarketsApi(context.http({ venue: venueId, rateLimit, mapError }), config.baseUrl);
  const { apiKey: username, privateKey: password } = context.credentials ?? {};
  const sessions =
    username && password
      ? new SessionTokens(
          () => api.login(username, password),
          () => context.clock.now(),
        )
      : undefined;
  const ctx: SmarketsContext = { api, clock: context.clock, sessions };

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Smarkets',
      hosts: { rest: config.baseUrl },
      rateLimit,
      credentials: { required: [], optional: credentialMembers },
      // The venue's own category names, by the normalised category each means: the catalog files its events by them.
      categoryWords: {
        Politics: ['current affairs', 'current_affairs'],
        Sports: [
          'football',
          'basketball',
          'baseball',
          'tennis',
          'golf',
          'boxing',
          'mma',
          'cricket',
          'rugby',
          'rugby league',
          'rugby union',
          'horse racing',
          'darts',
          'snooker',
          'motorsport',
          'cycling',
          'american football',
          'ice hockey',
        ],
      },
      unsupported: {
        fetchTrades: 'Smarkets publishes no public trade tape: only an account’s own fills (fetchMyTrades)',
        fetchOHLCV: 'Smarkets publishes no price history',
        fetchPositions: 'Smarkets has no positions read; an account’s exposure is in fetchBalance (locked) and its orders',
        fetchSeries: 'Smarkets has no series; events have parent events instead',
        fetchOrderBooks: 'Smarkets quotes one market per call and allows 50 quote calls a minute: read books one outcome at a time with fetchOrderBook',
        fetchEventMetadata: 'not read yet: Smarkets’ competitors and live-state endpoints have no unified shape here',
        buildOrder: 'Smarkets orders are not signed: an order is one authenticated request, placed with createOrder',
        submitOrder: 'Smarkets orders are not signed: there is no built order to submit; use createOrder',
        watchOrderBook: 'Smarkets’ v3 API is REST only (its legacy streaming API is not part of it): read books with fetchOrderBook',
        watchOrderBooks: 'Smarkets’ v3 API is REST only (its legacy streaming API is not part of it): read books with fetchOrderBook',
        watchTrades: 'Smarkets publishes no public trade tape, streamed or not',
      },
    },
    ...bindContext(ctx, {
      fetchEvents,
      fetchEventsPaginated,
      fetchMarkets,
      fetchOrderBook,
      fetchBalance,
      fetchOpenOrders,
      fetchAllOrders,
      fetchClosedOrders,
      fetchMyTrades,
      fetchOrder,
      createOrder,
      cancelOrder,
    }),
  });
}
