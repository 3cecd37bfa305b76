import { bindContext, defineAdapter } from '@predgate/core';
import type { AdapterContext } from '@predgate/core';
import { venueApi } from './api/client.js';
import type { TemplateConfig } from './config.js';
import { venue } from './venue.js';
import type { TemplateContext } from './context.js';
import { mapError } from './errors.js';
import { fetchEvents } from './reads/events.js';
import { fetchOrderBook } from './reads/order-book.js';

const rateLimit = { requests: 10, intervalMs: 1_000 };

/**
 * Why each method the venue does not answer is missing: `describe` and the
 * NOT_SUPPORTED error give the reason. A real venue states its own per method
 * (no series, no websocket, orders are wallet transactions...).
 */
const onlyEventsAndBooks = 'the template’s example venue publishes only its event list and order books';
const unsupported = Object.fromEntries(
  [
    'fetchMarkets',
    'fetchMarket',
    'fetchMarketsPaginated',
    'loadMarkets',
    'fetchEventMetadata',
    'fetchSeries',
    'fetchOrderBooks',
    'fetchTrades',
    'fetchOHLCV',
    'createOrder',
    'buildOrder',
    'submitOrder',
    'cancelOrder',
    'fetchOrder',
    'fetchOpenOrders',
    'fetchClosedOrders',
    'fetchAllOrders',
    'fetchMyTrades',
    'fetchPositions',
    'fetchBalance',
    'watchOrderBook',
    'watchOrderBooks',
    'watchTrades',
  ].map((name) => [name, onlyEventsAndBooks]),
);

/** One adapter instance: its context, and the methods the venue answers, each a read or account function bound to it. */
export function createTemplateAdapter(context: AdapterContext, config: TemplateConfig) {
  const http = context.http({ venue, rateLimit, mapError });
  const ctx: TemplateContext = { api: venueApi(http, config.baseUrl) };
  return defineAdapter({
    id: venue,
    profile: {
      displayName: 'Template venue',
      hosts: { rest: config.baseUrl },
      rateLimit,
      credentials: { required: [], optional: [] },
      unsupported,
    },
    ...bindContext(ctx, { fetchEvents, fetchOrderBook }),
  });
}
