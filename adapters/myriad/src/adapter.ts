import { bindContext, defineAdapter } from '@predgate/core';
import type { AdapterContext } from '@predgate/core';
import { fetchPositions } from './account/positions.js';
import { fetchMyTrades } from './account/trades.js';
import { myriadApi } from './api/client.js';
import type { MyriadConfig } from './config.js';
import { venueId } from './venue.js';
import type { MyriadContext } from './context.js';
import { mapError } from './errors.js';
import { fetchEvents, fetchMarkets } from './reads/markets.js';
import { fetchOHLCV } from './reads/ohlcv.js';
import { fetchOrderBook } from './reads/order-book.js';
import { fetchTrades } from './reads/trades.js';

/** Documented for callers without an API key: 30 requests per 10 seconds per IP (100 per second with one). */
const rateLimit = { requests: 30, intervalMs: 10_000 };

const noOrders = 'AMM markets have no orders; order-book order management is not implemented (its API schema is unpublished)';
const noStream = 'Myriad documents no websocket: its prices and trades are read over REST';

const notOnApi = 'Myriad’s API does not execute trades: an AMM trade is a transaction the user’s own wallet sends from a quote’s calldata';

/**
 * Myriad: AMM and order-book markets on several EVM networks. Each market is
 * an event of its own (the listing's unit; the same question deployed on two
 * networks is two markets with their own pools and prices).
 */
export function createMyriadAdapter(context: AdapterContext, config: MyriadConfig) {
  const ctx: MyriadContext = {
    api: myriadApi(context.http({ venue: venueId, rateLimit, mapError }), config.baseUrl, context.credentials?.apiKey ?? config.apiKey),
    clock: context.clock,
    credentials: context.credentials,
  };
  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Myriad',
      hosts: { rest: config.baseUrl },
      rateLimit,
      credentials: { required: [], optional: ['apiKey', 'funderAddress'] },
      unsupported: {
        fetchSeries: 'Myriad has no series',
        fetchBalance: 'Myriad’s API reports no wallet balance; balances are ERC-20 balances on each network',
        createOrder: notOnApi,
        buildOrder: notOnApi,
        submitOrder: notOnApi,
        cancelOrder: 'AMM trades cannot be cancelled; order-book order management is not implemented (its API schema is unpublished)',
        fetchOpenOrders: noOrders,
        fetchOrder: noOrders,
        fetchClosedOrders: noOrders,
        fetchAllOrders: noOrders,
        watchOrderBook: noStream,
        watchOrderBooks: noStream,
        watchTrades: noStream,
        fetchEventMetadata: 'not offered: what Myriad publishes about a market comes with it from fetchEvent',
        fetchOrderBooks: 'Myriad serves one outcome’s book per request: call fetchOrderBook for each outcome',
      },
    },
    ...bindContext(ctx, { fetchEvents, fetchMarkets, fetchOrderBook, fetchTrades, fetchOHLCV, fetchPositions, fetchMyTrades }),
  });
}
