import { PredgateError, bindContext, defineAdapter } from '@predgate/core';
import type { AdapterContext } from '@predgate/core';
import { honouredOrderControls } from './account/order-request.js';
import { buildOrder, cancelOrder, createOrder, fetchAllOrders, fetchClosedOrders, fetchOpenOrders, fetchOrder, submitOrder } from './account/orders.js';
import { fetchBalance, fetchMyTrades, fetchPositions } from './account/portfolio.js';
import { KalshiApi } from './api/client.js';
import { credentialMembers } from './auth/signer.js';
import type { KalshiConfig } from './config.js';
import type { KalshiContext } from './context.js';
import { fetchEvent, fetchEventMetadata, fetchEvents, fetchEventsPage } from './reads/events.js';
import { fetchOHLCV, fetchTrades } from './reads/market-data.js';
import { fetchMarket, fetchMarkets } from './reads/markets.js';
import { fetchOrderBook, fetchOrderBooks } from './reads/order-books.js';
import { SeriesDirectory } from './reads/series-directory.js';
import { fetchSeries } from './reads/series.js';
import { SeriesTickers } from './reads/series-tickers.js';
import { KalshiStream } from './streams/market-stream.js';
import type { KalshiVenue } from './config.js';

/**
 * One Kalshi venue (production or demo) for one set of credentials, or none.
 * Each method is a function of its role's module over the context an
 * instance shares: the signed API client and the series caches.
 */
export function createKalshiAdapter(context: AdapterContext, venue: KalshiVenue, config: KalshiConfig) {
  const ctx: KalshiContext = {
    api: new KalshiApi({ venue, config, http: context.http, clock: context.clock, credentials: context.credentials }),
    origin: { exchange: venue.id, web: config.hosts.web },
    config,
    clock: context.clock,
    logger: context.logger.child({ venue: venue.id }),
    seriesTickers: new SeriesTickers(),
    seriesDirectory: new SeriesDirectory(),
  };

  const stream = new KalshiStream({
    urls: [config.hosts.ws, ...config.hosts.wsFallbacks],
    venue: venue.id,
    credentials: context.credentials ?? config.stream.credentials,
    clock: context.clock,
    pingIntervalMs: config.stream.pingIntervalMs,
    backoff: config.stream.backoff,
  });

  return defineAdapter({
    id: venue.id,
    profile: {
      displayName: venue.displayName,
      hosts: {
        rest: config.hosts.rest,
        web: config.hosts.web,
        ...Object.fromEntries(config.hosts.restFallbacks.map((origin, index) => [`restFallback${index + 1}`, origin])),
      },
      rateLimit: config.rateLimit,
      credentials: { required: [...credentialMembers], optional: [] },
      // The venue's own category names, by the normalised category each means: the catalog files its events by them.
      categoryWords: {
        Politics: ['elections', 'world'],
        Economics: ['financials', 'companies'],
        Science: ['science and technology', 'climate and weather', 'health'],
        Culture: ['entertainment', 'mentions', 'social'],
        Sports: ['nba', 'nfl', 'mlb', 'nhl'],
      },
      orderControls: honouredOrderControls,
    },
    /** Kalshi has no flat market list with titles: markets are read through their events. */
    emulated: ['fetchMarkets'],
    // Streams: the orderbook_delta and trade channels of one signed connection per adapter instance.
    watchOrderBook: (outcomeId) => stream.watchOrderBook(outcomeId),
    watchTrades(outcomeId, address) {
      if (address !== undefined)
        throw new PredgateError('NOT_SUPPORTED', `${venue.id}: watching a wallet's trades is not supported; watch the outcome`, { exchange: venue.id });
      return stream.watchTrades(outcomeId);
    },
    close: () => stream.close(),
    ...bindContext(ctx, {
      // Catalog
      fetchEvents,
      fetchEventsPaginated: fetchEventsPage,
      fetchEvent,
      fetchMarkets,
      fetchMarket,
      fetchEventMetadata,
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
      fetchClosedOrders,
      fetchAllOrders,
      fetchOrder,
      fetchMyTrades,
      buildOrder,
      submitOrder,
      createOrder,
      cancelOrder,
    }),
  });
}

export type KalshiAdapter = ReturnType<typeof createKalshiAdapter>;
