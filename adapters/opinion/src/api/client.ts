import { missingCredentials } from '@predgate/core';
import type { ErrorCode, QueryValue, VenueHttpClient } from '@predgate/core';
import type Joi from 'joi';
import { openEnvelope } from './envelope.js';
import * as schema from './schemas.js';
import type { RawBook, RawHistory, RawLatestPrice, RawMarket, RawOrder, RawPlaced, RawPosition, RawTrade } from './schemas.js';

/** Most items Opinion returns per page on every list endpoint. */
export const pageSize = 20;

export interface OpinionHosts {
  /** The OpenAPI (catalog, books, account reads), `.../openapi`. */
  api: string;
  /** The CLOB host orders are posted to, `.../openapi`. */
  trading: string;
}

export interface MarketQuery {
  page: number;
  limit: number;
  /** `activated` or `resolved`; both when absent. */
  status?: 'activated' | 'resolved';
  /** 0 binary, 1 categorical, 2 both (the venue's default is 0, binary only). */
  marketType: 0 | 1 | 2;
  /** 1 newest, 3 volume, 5 24h volume. */
  sortBy?: number;
}

export interface Paged<T> {
  total?: number | null;
  list: T[] | null;
}

/**
 * Opinion's OpenAPI endpoints, each answer opened from its envelope and
 * checked before it is read. Every call carries the API key in the `apikey`
 * header: Opinion serves no read without one.
 */
export function opinionApi(http: VenueHttpClient, hosts: OpinionHosts, apiKey: string | undefined) {
  const headers = (): Record<string, string> => {
    if (!apiKey) throw missingCredentials(http.venue, ['apiKey']);
    return { apikey: apiKey };
  };

  async function get<T>(
    host: string,
    path: string,
    endpoint: string,
    result: Joi.Schema,
    query?: Record<string, QueryValue>,
    notFound?: ErrorCode,
  ): Promise<T> {
    const url = `${host}${path}`;
    const body = await http.json({ url, headers: headers(), ...(query ? { query } : {}) });
    return openEnvelope<T>(body, result, { venue: http.venue, endpoint, method: 'GET', url: new URL(url), ...(notFound ? { notFound } : {}) });
  }

  /** Writes go to the trading host and are never retried (a POST is not idempotent): an order sent twice could fill twice. */
  async function post<T>(path: string, endpoint: string, body: unknown, result: Joi.Schema, codes: { notFound?: ErrorCode; refused?: ErrorCode }): Promise<T> {
    const url = `${hosts.trading}${path}`;
    const answer = await http.json({ method: 'POST', url, headers: headers(), body });
    return openEnvelope<T>(answer, result, { venue: http.venue, endpoint, method: 'POST', url: new URL(url), ...codes });
  }

  const detail = async <T>(path: string, endpoint: string, notFound: ErrorCode): Promise<T | null> =>
    (await get<{ data?: T | null }>(hosts.api, path, endpoint, schema.detailOf(schema.market), undefined, notFound)).data ?? null;

  const id = (value: string | number) => encodeURIComponent(String(value));

  return {
    markets: (query: MarketQuery) => get<Paged<RawMarket>>(hosts.api, '/market', 'GET /market', schema.listOf(schema.market, 'marketId'), { ...query }),
    market: (marketId: string) => detail<RawMarket>(`/market/${id(marketId)}`, 'GET /market/{marketId}', 'MARKET_NOT_FOUND'),
    marketBySlug: (slug: string) => detail<RawMarket>(`/market/slug/${id(slug)}`, 'GET /market/slug/{slug}', 'MARKET_NOT_FOUND'),
    categorical: (marketId: string) => detail<RawMarket>(`/market/categorical/${id(marketId)}`, 'GET /market/categorical/{marketId}', 'EVENT_NOT_FOUND'),
    orderBook: (tokenId: string) =>
      get<RawBook>(hosts.api, '/token/orderbook', 'GET /token/orderbook', schema.book, { token_id: tokenId }, 'OUTCOME_NOT_FOUND'),
    latestPrice: (tokenId: string) =>
      get<RawLatestPrice | null>(hosts.api, '/token/latest-price', 'GET /token/latest-price', schema.latestPrice.allow(null), { token_id: tokenId }),
    priceHistory: (query: { token_id: string; interval: string; start_at: number; end_at: number }) =>
      get<RawHistory>(hosts.api, '/token/price-history', 'GET /token/price-history', schema.history, query, 'OUTCOME_NOT_FOUND'),
    userTrades: (wallet: string, query: { page: number; limit: number; marketId?: string }) =>
      get<Paged<RawTrade>>(hosts.api, `/trade/user/${id(wallet)}`, 'GET /trade/user/{walletAddress}', schema.listOf(schema.trade, 'txHash'), query),
    positions: (wallet: string, query: { page: number; limit: number; marketId?: string }) =>
      get<Paged<RawPosition>>(
        hosts.api,
        `/positions/user/${id(wallet)}`,
        'GET /positions/user/{walletAddress}',
        schema.listOf(schema.position, 'tokenId'),
        query,
      ),
    orders: (query: { page: number; limit: number; status?: string; marketId?: string }) =>
      get<Paged<RawOrder>>(hosts.api, '/order', 'GET /order', schema.listOf(schema.order, 'orderId'), query),
    order: async (orderId: string) =>
      (await get<{ orderData?: RawOrder | null }>(hosts.api, `/order/${id(orderId)}`, 'GET /order/{orderId}', schema.orderDetail, undefined, 'ORDER_NOT_FOUND'))
        .orderData ?? null,
    placeOrder: async (body: Record<string, unknown>) => {
      const placed = await post<RawPlaced>('/order', 'POST /order', body, schema.placed, { refused: 'INVALID_ORDER' });
      return String(placed.orderId ?? placed.orderData!.orderId);
    },
    cancelOrder: (orderId: string) =>
      post<unknown>('/order/cancel', 'POST /order/cancel', { orderId }, schema.cancelled, { notFound: 'ORDER_NOT_FOUND', refused: 'INVALID_ORDER' }),
  };
}

export type OpinionApi = ReturnType<typeof opinionApi>;
