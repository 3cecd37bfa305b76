import { bindContext, defineAdapter } from '@predgate/core';
import type { AdapterContext } from '@predgate/core';
import { createOrder } from './account/bets.js';
import { fetchBalance, fetchPositions } from './account/portfolio.js';
import { hunchApi } from './api/client.js';
import type { HunchConfig } from './config.js';
import { venueId } from './venue.js';
import type { HunchContext } from './context.js';
import { mapError } from './errors.js';
import { fetchOHLCV, fetchTrades } from './reads/history.js';
import { fetchEventMetadata, fetchEvents, fetchMarkets } from './reads/markets.js';

/** Unpublished beyond quotes (30 a minute per IP) and trades (10 a minute per wallet); pmxt spaces calls 500 ms apart. */
const rateLimit = { requests: 2, intervalMs: 1_000 };
const noResting = 'Hunch is parimutuel: a bet is final when placed, there are no resting orders';

/**
 * Hunch: parimutuel markets on Base. There is no event tier (each market is
 * an event), no order book (prices are the pools' implied odds, so
 * `fetchOrderBook` is absent rather than made up), and no resting orders.
 */
export function createHunchAdapter(context: AdapterContext, config: HunchConfig) {
  const ctx: HunchContext = {
    api: hunchApi(context.http({ venue: venueId, rateLimit, mapError }), config.baseUrl),
    credentials: context.credentials,
    clock: context.clock,
  };

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Hunch',
      hosts: { rest: config.baseUrl },
      rateLimit,
      credentials: { required: [], optional: ['privateKey', 'walletAddress'] },
      unsupported: {
        fetchOrderBook: 'Hunch is parimutuel: prices are the pools’ implied odds, there is no order book',
        fetchOrderBooks: 'Hunch is parimutuel: prices are the pools’ implied odds, there is no order book',
        fetchSeries: 'Hunch has no series',
        buildOrder: 'a Hunch bet is paid in the request that places it (x402), so it cannot be built ahead and sent later',
        submitOrder: 'a Hunch bet is paid in the request that places it (x402), so it cannot be built ahead and sent later',
        cancelOrder: `${noResting}, and bets cannot be cancelled`,
        fetchOpenOrders: noResting,
        fetchOrder: `${noResting}; bets are listed by fetchPositions`,
        fetchMyTrades: 'Hunch lists a wallet’s bets only as positions (fetchPositions)',
        fetchClosedOrders: `${noResting}; bets are listed by fetchPositions`,
        fetchAllOrders: `${noResting}; bets are listed by fetchPositions`,
        watchOrderBook: 'Hunch is parimutuel and has no websocket: there is no order book to stream',
        watchOrderBooks: 'Hunch is parimutuel and has no websocket: there is no order book to stream',
        watchTrades: 'Hunch has no websocket: its bets are read over REST (fetchTrades)',
      },
    },
    ...bindContext(ctx, { fetchEvents, fetchMarkets, fetchEventMetadata, fetchTrades, fetchOHLCV, fetchPositions, fetchBalance, createOrder }),
  });
}
