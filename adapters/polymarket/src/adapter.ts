import { randomInt } from 'node:crypto';
import { defineAdapter } from '@predgate/core';
import type { AdapterContext } from '@predgate/core';
import { createVenueClient } from './api/client.js';
import { ClobPrivateApi } from './api/clob-private.js';
import { ClobPublicApi } from './api/clob-public.js';
import { DataApi } from './api/data.js';
import { GammaApi } from './api/gamma.js';
import { ClobAuthenticator } from './auth/api-keys.js';
import type { PolymarketConfig } from './config.js';
import { AccountReads } from './operations/account.js';
import { CatalogReads } from './operations/catalog.js';
import { MarketLookup } from './operations/lookup.js';
import { MarketDataReads } from './operations/market-data.js';
import { Trading } from './operations/trading.js';
import type { SaltSource } from './operations/trading.js';
import { profileOf } from './profile.js';
import { venueId } from './venue.js';

export interface PolymarketAdapterOptions {
  /** Order salts; tests fix it to sign a known order. */
  salt?: SaltSource;
}

/** Salts stay below 2^53 so the JSON integer the venue reads is exact. */
const randomSalt: SaltSource = () => randomInt(1, 2 ** 47);

/**
 * The Polymarket adapter. It implements the core methods Polymarket can
 * answer; fetchAllOrders, fetchClosedOrders and fetchEventMetadata are absent
 * because the venue has no endpoint for them. Each method is the part of the
 * adapter for its role: catalog reads, market data, account reads, trading.
 */
export function createPolymarketAdapter(context: AdapterContext, config: PolymarketConfig, options: PolymarketAdapterOptions = {}) {
  const http = createVenueClient(context, config);
  const gamma = new GammaApi(http, config.hosts.gamma);
  const lookup = new MarketLookup(gamma);
  const auth = new ClobAuthenticator(http, config.hosts.clob, context.credentials, context.clock);
  const clobPrivate = new ClobPrivateApi(http, config.hosts.clob, auth);
  const data = new DataApi(http, config.hosts.data);
  const catalog = new CatalogReads(gamma, lookup, config.pageSize);
  const marketData = new MarketDataReads(new ClobPublicApi(http, config.hosts.clob), data, lookup, context.clock);
  const account = new AccountReads(clobPrivate, data, lookup, context.credentials, context.clock);
  const trading = new Trading(clobPrivate, auth, lookup, account, context.credentials, context.clock, options.salt ?? randomSalt);

  return defineAdapter({
    id: venueId,
    profile: profileOf(config.hosts),

    // Catalog
    fetchEvents: (params) => catalog.fetchEvents(params),
    fetchEvent: (params) => catalog.fetchEvent(params),
    fetchMarkets: (params) => catalog.fetchMarkets(params),
    fetchMarket: (params) => catalog.fetchMarket(params),
    fetchSeries: (params) => catalog.fetchSeries(params),

    // Market data
    fetchOrderBook: (outcomeId, limit, params) => marketData.fetchOrderBook(outcomeId, limit, params),
    fetchOrderBooks: (outcomeIds) => marketData.fetchOrderBooks(outcomeIds),
    fetchTrades: (outcomeId, params) => marketData.fetchTrades(outcomeId, params),
    fetchOHLCV: (outcomeId, params) => marketData.fetchOHLCV(outcomeId, params),

    // Account
    fetchBalance: (address) => account.fetchBalance(address),
    fetchPositions: (address) => account.fetchPositions(address),
    fetchOpenOrders: (marketId) => account.fetchOpenOrders(marketId),
    fetchOrder: (orderId) => account.fetchOrder(orderId),
    fetchMyTrades: (params) => account.fetchMyTrades(params),

    // Trading
    createOrder: (params) => trading.createOrder(params),
    buildOrder: (params) => trading.buildOrder(params),
    submitOrder: (built) => trading.submitOrder(built),
    cancelOrder: (orderId) => trading.cancelOrder(orderId),
  });
}

export type PolymarketAdapter = ReturnType<typeof createPolymarketAdapter>;
