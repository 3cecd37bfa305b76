import { bindContext, defineAdapter } from '@predgate/core';
import type { AdapterContext } from '@predgate/core';
import { fetchBalance } from './account/balance.js';
import { honouredOrderControls } from './account/order-request.js';
import { buildOrder, cancelOrder, createOrder, fetchOpenOrders, fetchOrder, submitOrder } from './account/orders.js';
import { fetchPositions } from './account/positions.js';
import { fetchMyTrades } from './account/trades.js';
import { polymarketUsApi } from './api/client.js';
import { requestHeaders } from './auth/request-headers.js';
import type { PolymarketUsConfig } from './config.js';
import { credentialMembers, venueId } from './venue.js';
import type { PolymarketUsContext } from './context.js';
import { mapError } from './errors.js';
import { fetchEvents } from './reads/events.js';
import { fetchMarkets } from './reads/markets.js';
import { fetchOrderBook } from './reads/order-book.js';
import { fetchSeries } from './reads/series.js';
import { watchOrderBook, watchTrades } from './reads/watch.js';
import { PolymarketUsStream } from './streams/market-stream.js';

/**
 * The documented limit: 20 requests a second per API key and per IP. The
 * gateway's Cloudflare layer throttles bursts well below it (429 with an HTML
 * body and Retry-After), which the HTTP client honours; the adapter keeps to
 * the documented figure rather than guessing the throttle.
 */
const rateLimit = { requests: 20, intervalMs: 1_000 };

/**
 * Polymarket US: events and binary markets from the public gateway, one book
 * per market quoted on the long side; balances, positions and orders signed
 * with the account's Ed25519 key.
 */
export function createPolymarketUsAdapter(context: AdapterContext, config: PolymarketUsConfig) {
  const api = polymarketUsApi(
    context.http({ venue: venueId, rateLimit, mapError }),
    { gateway: config.gatewayUrl, api: config.apiUrl },
    requestHeaders(context.credentials, context.clock),
  );
  const stream = new PolymarketUsStream({
    url: config.wsUrl,
    venue: venueId,
    credentials: context.credentials ?? config.stream.credentials,
    clock: context.clock,
    pingIntervalMs: config.stream.pingIntervalMs,
    backoff: config.stream.backoff,
  });
  const ctx: PolymarketUsContext = { api, clock: context.clock, stream };

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Polymarket US',
      hosts: { gateway: config.gatewayUrl, api: config.apiUrl, ws: config.wsUrl },
      rateLimit,
      credentials: { required: credentialMembers, optional: ['apiSecret'] },
      orderControls: honouredOrderControls,
      unsupported: {
        fetchTrades: 'Polymarket US has no public trade tape over REST; prints come only over its websocket (watchTrades)',
        fetchOHLCV: 'Polymarket US publishes no price history',
        fetchAllOrders: 'Polymarket US has no order history read; fills are in fetchMyTrades',
        fetchClosedOrders: 'Polymarket US has no order history read: only open orders and single orders by id; fills are in fetchMyTrades',
        fetchOrderBooks:
          'Polymarket US has no batch book read, and its gateway throttles bursts of single book reads (about one a second): fetch each book with fetchOrderBook or watch them',
        fetchEventMetadata: 'Polymarket US has no event metadata endpoint; what events carry (state, teams, series) is in their sourceMetadata',
      },
    },
    ...bindContext(ctx, {
      fetchEvents,
      fetchMarkets,
      fetchSeries,
      fetchOrderBook,
      watchOrderBook,
      watchTrades,
      fetchBalance,
      fetchPositions,
      fetchOpenOrders,
      fetchOrder,
      fetchMyTrades,
      buildOrder,
      submitOrder,
      createOrder,
      cancelOrder,
    }),
    close: () => stream.close(),
  });
}
