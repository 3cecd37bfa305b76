import type {
  AdapterContext,
  Balance,
  CreateOrderParams,
  Event,
  EventFetchParams,
  EventFilterCriteria,
  Market,
  MarketFetchParams,
  MyTradesParams,
  OHLCVParams,
  Order,
  OrderBook,
  OrderBookParams,
  OrderHistoryParams,
  Page,
  PageParams,
  Position,
  PriceCandle,
  Series,
  SeriesFetchParams,
  Trade,
  TradesParams,
  UserTrade,
  VenueAdapter,
  VenueProfile,
} from '@predgate/core';
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
 * Each method delegates to the module of its role; this class only holds
 * what an instance shares.
 */
export class KalshiAdapter implements VenueAdapter {
  readonly id: KalshiVenue['id'];
  readonly profile: VenueProfile;
  /** Kalshi has no flat market list with titles (markets are read through their events) and no endpoints for the computations. */
  readonly emulated = ['fetchMarkets'] as const;

  private readonly ctx: KalshiContext;
  private readonly seriesDirectory: SeriesDirectory;

  constructor(context: AdapterContext, venue: KalshiVenue, config: KalshiConfig) {
    this.id = venue.id;
    this.profile = {
      displayName: venue.displayName,
      hosts: { ...config.hosts },
      rateLimit: config.rateLimit,
      credentials: { required: [...credentialMembers], optional: [] },
    };
    this.ctx = {
      api: new KalshiApi({ venue, config, http: context.http, clock: context.clock, credentials: context.credentials }),
      origin: { exchange: venue.id, web: config.hosts.web },
      config,
      clock: context.clock,
      logger: context.logger.child({ venue: venue.id }),
      seriesTickers: new SeriesTickers(),
    };
    this.seriesDirectory = new SeriesDirectory(this.ctx);
  }

  // Catalog

  fetchEvents(params?: EventFetchParams): Promise<Event[]> {
    return fetchEvents(this.ctx, this.seriesDirectory, params);
  }

  fetchEventsPaginated(params?: PageParams<EventFilterCriteria>): Promise<Page<Event>> {
    return fetchEventsPage(this.ctx, this.seriesDirectory, params);
  }

  fetchEvent(params?: EventFetchParams): Promise<Event> {
    return fetchEvent(this.ctx, this.seriesDirectory, params);
  }

  fetchMarkets(params?: MarketFetchParams): Promise<Market[]> {
    return fetchMarkets(this.ctx, this.seriesDirectory, params);
  }

  fetchMarket(params?: MarketFetchParams): Promise<Market> {
    return fetchMarket(this.ctx, this.seriesDirectory, params);
  }

  fetchEventMetadata(eventTicker: string): Promise<Record<string, unknown>> {
    return fetchEventMetadata(this.ctx, eventTicker);
  }

  fetchSeries(params?: SeriesFetchParams): Promise<Series[]> {
    return fetchSeries(this.ctx, params);
  }

  // Market data

  fetchOrderBook(outcomeId: string, limit?: number, params?: OrderBookParams): Promise<OrderBook> {
    return fetchOrderBook(this.ctx, outcomeId, limit, params);
  }

  fetchOrderBooks(outcomeIds: string[]): Promise<Record<string, OrderBook>> {
    return fetchOrderBooks(this.ctx, outcomeIds);
  }

  fetchTrades(outcomeId: string, params?: TradesParams): Promise<Trade[]> {
    return fetchTrades(this.ctx, outcomeId, params);
  }

  fetchOHLCV(outcomeId: string, params: OHLCVParams): Promise<PriceCandle[]> {
    return fetchOHLCV(this.ctx, outcomeId, params);
  }

  // Account

  fetchBalance(address?: string): Promise<Balance[]> {
    return fetchBalance(this.ctx, address);
  }

  fetchPositions(address?: string): Promise<Position[]> {
    return fetchPositions(this.ctx, address);
  }

  fetchOpenOrders(marketId?: string): Promise<Order[]> {
    return fetchOpenOrders(this.ctx, marketId);
  }

  fetchClosedOrders(params?: OrderHistoryParams): Promise<Order[]> {
    return fetchClosedOrders(this.ctx, params);
  }

  fetchAllOrders(params?: OrderHistoryParams): Promise<Order[]> {
    return fetchAllOrders(this.ctx, params);
  }

  fetchOrder(orderId: string): Promise<Order> {
    return fetchOrder(this.ctx, orderId);
  }

  fetchMyTrades(params?: MyTradesParams): Promise<UserTrade[]> {
    return fetchMyTrades(this.ctx, params);
  }

  createOrder(params: CreateOrderParams): Promise<Order> {
    return createOrder(this.ctx, params);
  }

  cancelOrder(orderId: string): Promise<Order> {
    return cancelOrder(this.ctx, orderId);
  }
}
