import { randomInt } from 'node:crypto';
import type {
  AdapterContext,
  Balance,
  BuiltOrder,
  CreateOrderParams,
  Event,
  EventFetchParams,
  Market,
  MarketFetchParams,
  MyTradesParams,
  OHLCVParams,
  Order,
  OrderBook,
  OrderBookParams,
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
 * because the venue has no endpoint for them. Each method hands over to the
 * part of the adapter for its role.
 */
export class PolymarketAdapter implements VenueAdapter {
  readonly id = venueId;
  readonly profile: VenueProfile;

  private readonly catalog: CatalogReads;
  private readonly marketData: MarketDataReads;
  private readonly account: AccountReads;
  private readonly trading: Trading;

  constructor(context: AdapterContext, config: PolymarketConfig, options: PolymarketAdapterOptions = {}) {
    this.profile = profileOf(config.hosts);
    const http = createVenueClient(context, config);
    const gamma = new GammaApi(http, config.hosts.gamma);
    const lookup = new MarketLookup(gamma);
    const auth = new ClobAuthenticator(http, config.hosts.clob, context.credentials, context.clock);
    const clobPrivate = new ClobPrivateApi(http, config.hosts.clob, auth);
    const data = new DataApi(http, config.hosts.data);
    this.catalog = new CatalogReads(gamma, lookup, config.pageSize);
    this.marketData = new MarketDataReads(new ClobPublicApi(http, config.hosts.clob), data, lookup, context.clock);
    this.account = new AccountReads(clobPrivate, data, lookup, context.credentials, context.clock);
    this.trading = new Trading(clobPrivate, auth, lookup, this.account, context.credentials, context.clock, options.salt ?? randomSalt);
  }

  // Catalog

  fetchEvents(params?: EventFetchParams): Promise<Event[]> {
    return this.catalog.fetchEvents(params);
  }

  fetchEvent(params?: EventFetchParams): Promise<Event> {
    return this.catalog.fetchEvent(params);
  }

  fetchMarkets(params?: MarketFetchParams): Promise<Market[]> {
    return this.catalog.fetchMarkets(params);
  }

  fetchMarket(params?: MarketFetchParams): Promise<Market> {
    return this.catalog.fetchMarket(params);
  }

  fetchSeries(params?: SeriesFetchParams): Promise<Series[]> {
    return this.catalog.fetchSeries(params);
  }

  // Market data

  fetchOrderBook(outcomeId: string, limit?: number, params?: OrderBookParams): Promise<OrderBook> {
    return this.marketData.fetchOrderBook(outcomeId, limit, params);
  }

  fetchOrderBooks(outcomeIds: string[]): Promise<Record<string, OrderBook>> {
    return this.marketData.fetchOrderBooks(outcomeIds);
  }

  fetchTrades(outcomeId: string, params?: TradesParams): Promise<Trade[]> {
    return this.marketData.fetchTrades(outcomeId, params);
  }

  fetchOHLCV(outcomeId: string, params: OHLCVParams): Promise<PriceCandle[]> {
    return this.marketData.fetchOHLCV(outcomeId, params);
  }

  // Account

  fetchBalance(address?: string): Promise<Balance[]> {
    return this.account.fetchBalance(address);
  }

  fetchPositions(address?: string): Promise<Position[]> {
    return this.account.fetchPositions(address);
  }

  fetchOpenOrders(marketId?: string): Promise<Order[]> {
    return this.account.fetchOpenOrders(marketId);
  }

  fetchOrder(orderId: string): Promise<Order> {
    return this.account.fetchOrder(orderId);
  }

  fetchMyTrades(params?: MyTradesParams): Promise<UserTrade[]> {
    return this.account.fetchMyTrades(params);
  }

  // Trading

  createOrder(params: CreateOrderParams): Promise<Order> {
    return this.trading.createOrder(params);
  }

  buildOrder(params: CreateOrderParams): Promise<BuiltOrder> {
    return this.trading.buildOrder(params);
  }

  submitOrder(built: BuiltOrder): Promise<Order> {
    return this.trading.submitOrder(built);
  }

  cancelOrder(orderId: string): Promise<Order> {
    return this.trading.cancelOrder(orderId);
  }
}
