import { randomInt } from 'node:crypto';
import { PredgateError, bindContext, defineAdapter } from '@predgate/core';
import type { AdapterContext } from '@predgate/core';
import { honouredOrderControls } from './account/order-type.js';
import { buildOrder, cancelOrder, createOrder, fetchOpenOrders, fetchOrder, submitOrder } from './account/orders.js';
import { fetchBalance, fetchMyTrades, fetchPositions } from './account/portfolio.js';
import { createVenueClient } from './api/client.js';
import { ClobPrivateApi } from './api/clob-private.js';
import { ClobPublicApi } from './api/clob-public.js';
import { DataApi } from './api/data.js';
import { GammaApi } from './api/gamma.js';
import { ClobAuthenticator } from './auth/api-keys.js';
import type { PolymarketConfig } from './config.js';
import { displayName, venueId } from './venue.js';
import type { PolymarketContext, SaltSource } from './context.js';
import { fetchEvent, fetchEvents, fetchEventsPaginated, fetchSeries } from './reads/events.js';
import { MarketLookup } from './reads/lookup.js';
import { fetchOHLCV, fetchTrades } from './reads/market-data.js';
import { fetchMarket, fetchMarkets } from './reads/markets.js';
import { fetchOrderBook, fetchOrderBooks } from './reads/order-books.js';
import { MarketStream } from './streams/market-stream.js';

export interface PolymarketAdapterOptions {
  /** Order salts; tests fix it to sign a known order. */
  salt?: SaltSource;
}

/** Salts stay below 2^53 so the JSON integer the venue reads is exact. */
const randomSalt: SaltSource = () => randomInt(1, 2 ** 47);

/**
 * The Polymarket adapter. fetchAllOrders, fetchClosedOrders and
 * fetchEventMetadata are absent because the venue has no endpoint for them.
 * Each method is a function of its role's module over the context an
 * instance shares: the three APIs, the CLOB authenticator and the token lookup.
 */
/** The CLOB lists only live orders; what a closed order did is in its fills. */
const closedOrders =
  'Polymarket’s CLOB lists only open orders (GET /data/orders) and has no closed-order history: an order’s fills are read with fetchMyTrades';

export function createPolymarketAdapter(context: AdapterContext, config: PolymarketConfig, options: PolymarketAdapterOptions = {}) {
  const http = createVenueClient(context, config);
  const gamma = new GammaApi(http, config.hosts.gamma);
  const auth = new ClobAuthenticator(http, config.hosts.clob, context.credentials, context.clock);
  const ctx: PolymarketContext = {
    gamma,
    clob: new ClobPublicApi(http, config.hosts.clob),
    clobPrivate: new ClobPrivateApi(http, config.hosts.clob, auth),
    data: new DataApi(http, config.hosts.data),
    auth,
    lookup: new MarketLookup(gamma),
    credentials: context.credentials,
    clock: context.clock,
    pageSize: config.pageSize,
    salt: options.salt ?? randomSalt,
  };

  const stream = new MarketStream({ url: config.ws, ...config.stream, tokenExists: async (tokenId) => (await ctx.lookup.byToken(tokenId)) !== undefined });

  return defineAdapter({
    id: venueId,
    // Every authenticated call needs the wallet key; the API key triple is derived from it when absent,
    // and `funderAddress` names the proxy wallet of signature types 1-3.
    profile: {
      displayName,
      hosts: { ...config.hosts },
      rateLimit: { ...config.rateLimit },
      credentials: { required: ['privateKey'], optional: ['apiKey', 'apiSecret', 'passphrase', 'signatureType', 'funderAddress'] },
      // The venue's own category names, by the normalised category each means: the catalog files its events by them.
      categoryWords: {
        Politics: ['geopolitics', 'elections', 'election', 'us politics', 'us-politics', 'government', 'world affairs'],
        Sports: ['sport', 'soccer', 'football', 'basketball', 'baseball', 'hockey', 'tennis', 'golf', 'esports', 'nba', 'nfl', 'mlb', 'nhl', 'ufc', 'f1'],
        Crypto: ['cryptocurrency', 'cryptocurrencies', 'bitcoin', 'ethereum', 'defi'],
        Economics: ['economy', 'finance', 'business', 'fed', 'stocks', 'commodities', 'earnings', 'inflation'],
        Science: ['tech', 'technology', 'ai', 'climate', 'weather', 'space'],
        Culture: ['pop culture', 'pop-culture', 'entertainment', 'movies', 'music', 'awards', 'celebrities', 'tv'],
      },
      orderControls: honouredOrderControls,
      unsupported: {
        fetchEventMetadata:
          'Polymarket has no metadata endpoint: what Gamma publishes about an event (its eventMetadata included) comes with it from fetchEvent',
        fetchClosedOrders: closedOrders,
        fetchAllOrders: closedOrders,
      },
    },
    // Streams: the CLOB market channel, one connection per adapter instance.
    watchOrderBook: (outcomeId) => stream.watchOrderBook(outcomeId),
    watchTrades(outcomeId, address) {
      if (address !== undefined)
        throw new PredgateError('NOT_SUPPORTED', 'Polymarket: watching a wallet’s trades is not supported; watch the outcome', { exchange: venueId });
      return stream.watchTrades(outcomeId);
    },
    close: () => stream.close(),
    ...bindContext(ctx, {
      // Catalog
      fetchEvents,
      fetchEventsPaginated,
      fetchEvent,
      fetchMarkets,
      fetchMarket,
      fetchSeries,
      // Market data
      fetchOrderBook,
      fetchOrderBooks,
      fetchTrades,
      fetchOHLCV,
      // Account
      fetchBalance,
      fetchPositions,
      fetchOpenOrders,
      fetchOrder,
      fetchMyTrades,
      // Trading
      createOrder,
      buildOrder,
      submitOrder,
      cancelOrder,
    }),
  });
}

export type PolymarketAdapter = ReturnType<typeof createPolymarketAdapter>;
