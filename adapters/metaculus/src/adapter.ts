import { bindContext, defineAdapter, missingCredentials } from '@predgate/core';
import type { AdapterContext } from '@predgate/core';
import { metaculusApi } from './api/client.js';
import type { MetaculusConfig } from './config.js';
import { tokenMember, venueId } from './venue.js';
import type { MetaculusContext } from './context.js';
import { mapError } from './errors.js';
import { fetchEvents } from './reads/events.js';
import { fetchMarkets } from './reads/markets.js';

/** The documented throttle: 1,000 requests per hour per token. */
const rateLimit = { requests: 1_000, intervalMs: 3_600_000 };

const notAnOrder = 'a Metaculus forecast is not an order, so there is nothing to build or submit; submit forecasts on Metaculus itself';
const noOrders = 'there are no orders or fills: forecasts are not orders';
const notAMarket = 'Metaculus is a forecasting platform: nothing is traded, so there are no books, trades, prices over time, balances or positions';

/**
 * Metaculus, read-only: posts are events, their questions markets, the
 * community prediction the outcome prices. Every call needs an API token: the
 * caller's `apiToken` credential, else the operator's from the environment
 * variable the manifest names, so the catalog can sweep it.
 */
export function createMetaculusAdapter(context: AdapterContext, config: MetaculusConfig) {
  // pmxt clients send the token as `apiKey`.
  const token = context.credentials?.apiToken ?? context.credentials?.apiKey ?? process.env[config.apiTokenEnv];
  const authorization = () => {
    if (!token) throw missingCredentials(venueId, tokenMember);
    return { authorization: `Token ${token}` };
  };
  const ctx: MetaculusContext = { api: metaculusApi(context.http({ venue: venueId, rateLimit, mapError }), config.baseUrl, authorization) };

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Metaculus',
      hosts: { rest: config.baseUrl },
      rateLimit,
      credentials: { required: tokenMember, optional: ['apiKey'] },
      // The venue's own category names, by the normalised category each means: the catalog files its events by them.
      categoryWords: { Politics: ['geopolitics'], Science: ['artificial intelligence', 'space'] },
      unsupported: {
        createOrder: 'a Metaculus forecast states a probability with no side, size, price or fill, so it is not an order; submit forecasts on Metaculus itself',
        cancelOrder: 'there are no orders to cancel: forecasts are not orders',
        fetchOrderBook: notAMarket,
        fetchTrades: notAMarket,
        fetchOHLCV: notAMarket,
        fetchBalance: notAMarket,
        fetchPositions: notAMarket,
        fetchOrderBooks: notAMarket,
        watchOrderBook: notAMarket,
        watchOrderBooks: notAMarket,
        watchTrades: notAMarket,
        buildOrder: notAnOrder,
        submitOrder: notAnOrder,
        fetchOrder: noOrders,
        fetchOpenOrders: noOrders,
        fetchClosedOrders: noOrders,
        fetchAllOrders: noOrders,
        fetchMyTrades: noOrders,
        fetchSeries: 'Metaculus has no recurring series (tournaments and projects group questions, not a recurrence)',
        fetchEventMetadata: 'not offered: what Metaculus publishes about a question (description, resolution criteria) comes with it from fetchEvent',
      },
    },
    ...bindContext(ctx, { fetchEvents, fetchMarkets }),
  });
}
