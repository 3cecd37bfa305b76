import { defineAdapter } from '@predgate/core';
import type { AdapterContext } from '@predgate/core';
import { cancelOrder, createOrder, fetchAllOrders, fetchClosedOrders, fetchOpenOrders, fetchOrder } from './account/orders.js';
import { fetchBalance, fetchMyTrades, fetchPositions } from './account/portfolio.js';
import { KalshiApi } from './api/client.js';
import { credentialMembers } from './auth/signer.js';
import type { KalshiConfig } from './config.js';
import type { KalshiContext } from './context.js';
import { fetchEvent, fetchEventMetadata, fetchEvents, fetchEventsPage } from './reads/events.js';
import { fetchOHLCV, fetchTrades } from './reads/market-data.js';
import { fetchMarket, fetchMarkets } from './reads/markets.js';
import { fetchOrderBook, fetchOrderBooks } from './reads/order-books.js';
import { SeriesDirectory, fetchSeries } from './reads/series.js';
import { SeriesTickers } from './reads/series-tickers.js';
import type { KalshiVenue } from './venues.js';

/**
 * One Kalshi venue (production or demo) for one set of credentials, or none.
 * Each method is the module of its role; the adapter holds only what an
 * instance shares: the signed API client and the series directory.
 */
export function createKalshiAdapter(context: AdapterContext, venue: KalshiVenue, config: KalshiConfig) {
  const ctx: KalshiContext = {
    api: new KalshiApi({ venue, config, http: context.http, clock: context.clock, credentials: context.credentials }),
    origin: { exchange: venue.id, web: config.hosts.web },
    config,
    clock: context.clock,
    logger: context.logger.child({ venue: venue.id }),
    seriesTickers: new SeriesTickers(),
  };
  const series = new SeriesDirectory(ctx);

  return defineAdapter({
    id: venue.id,
    profile: {
      displayName: venue.displayName,
      hosts: { ...config.hosts },
      rateLimit: config.rateLimit,
      credentials: { required: [...credentialMembers], optional: [] },
    },
    /** Kalshi has no flat market list with titles: markets are read through their events. */
    emulated: ['fetchMarkets'],

    // Catalog
    fetchEvents: (params) => fetchEvents(ctx, series, params),
    fetchEventsPaginated: (params) => fetchEventsPage(ctx, series, params),
    fetchEvent: (params) => fetchEvent(ctx, series, params),
    fetchMarkets: (params) => fetchMarkets(ctx, series, params),
    fetchMarket: (params) => fetchMarket(ctx, series, params),
    fetchEventMetadata: (eventTicker) => fetchEventMetadata(ctx, eventTicker),
    fetchSeries: (params) => fetchSeries(ctx, params),

    // Market data
    fetchOrderBook: (outcomeId, limit, params) => fetchOrderBook(ctx, outcomeId, limit, params),
    fetchOrderBooks: (outcomeIds) => fetchOrderBooks(ctx, outcomeIds),
    fetchTrades: (outcomeId, params) => fetchTrades(ctx, outcomeId, params),
    fetchOHLCV: (outcomeId, params) => fetchOHLCV(ctx, outcomeId, params),

    // Account
    fetchBalance: (address) => fetchBalance(ctx, address),
    fetchPositions: (address) => fetchPositions(ctx, address),
    fetchOpenOrders: (marketId) => fetchOpenOrders(ctx, marketId),
    fetchClosedOrders: (params) => fetchClosedOrders(ctx, params),
    fetchAllOrders: (params) => fetchAllOrders(ctx, params),
    fetchOrder: (orderId) => fetchOrder(ctx, orderId),
    fetchMyTrades: (params) => fetchMyTrades(ctx, params),
    createOrder: (params) => createOrder(ctx, params),
    cancelOrder: (orderId) => cancelOrder(ctx, orderId),
  });
}

export type KalshiAdapter = ReturnType<typeof createKalshiAdapter>;
