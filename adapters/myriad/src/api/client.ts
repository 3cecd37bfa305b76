import { checkPayload } from '@predgate/core';
import type { QueryValue, VenueHttpClient } from '@predgate/core';
import type Joi from 'joi';
import { book, holding, market, marketEvent, page, userEvents } from './schemas.js';
import type { RawBook, RawHolding, RawMarket, RawMarketEvent, RawUserEvent } from './schemas.js';

/**
 * Myriad's REST API v2. Market ids are unique per network only, so every
 * market call carries `network_id`; lists page by number (100 at most).
 */
export function myriadApi(http: VenueHttpClient, baseUrl: string, apiKey: string | undefined) {
  const headers = apiKey ? { 'x-api-key': apiKey } : undefined;
  const get = async <T>(schema: Joi.Schema, endpoint: string, path: string, query?: Record<string, QueryValue>): Promise<T> =>
    checkPayload<T>(schema, await http.json({ url: `${baseUrl}${path}`, query, headers }), { venue: http.venue, endpoint });
  /** Single objects come unwrapped, or on some deployments inside `{data}`. */
  const getOne = async <T>(schema: Joi.Schema, endpoint: string, path: string, query?: Record<string, QueryValue>): Promise<T> => {
    const body = await http.json({ url: `${baseUrl}${path}`, query, headers });
    const unwrapped = typeof body === 'object' && body !== null && !('id' in body) && 'data' in body ? (body as { data: unknown }).data : body;
    return checkPayload<T>(schema, unwrapped, { venue: http.venue, endpoint });
  };
  const segment = encodeURIComponent;

  return {
    /** AMM and order-book markets alike: without `trading_model=all` the venue leaves order-book markets out. */
    markets: (query: Record<string, QueryValue>) =>
      get<{ data: RawMarket[]; pagination?: { hasNext?: boolean } }>(page(market, 'id'), 'GET /markets', '/markets', { ...query, trading_model: 'all' }),
    market: (id: number, networkId: number) => getOne<RawMarket>(market.required(), 'GET /markets/{id}', `/markets/${id}`, { network_id: networkId }),
    marketBySlug: (slug: string) => getOne<RawMarket>(market.required(), 'GET /markets/{slug}', `/markets/${segment(slug)}`),
    /** Per outcome of an order-book market. */
    orderbook: (id: number, networkId: number, outcomeId: number) =>
      get<RawBook>(book, 'GET /markets/{id}/orderbook', `/markets/${id}/orderbook`, { network_id: networkId, outcome: outcomeId }),
    events: (id: number, networkId: number, limit: number, window: Record<string, QueryValue>) =>
      get<{ data: RawMarketEvent[] }>(page(marketEvent, 'txId'), 'GET /markets/{id}/events', `/markets/${id}/events`, {
        network_id: networkId,
        page: 1,
        limit,
        ...window,
      }),
    /** A wallet's events across markets, newest first (`market_id`, `network_id`, `since`, `until` narrow them). */
    userEvents: (address: string, limit: number, query: Record<string, QueryValue>) =>
      get<{ data: RawUserEvent[] }>(userEvents, 'GET /users/{address}/events', `/users/${segment(address)}/events`, { page: 1, limit, ...query }),
    portfolio: (address: string) =>
      get<{ data: RawHolding[] }>(page(holding, 'marketId'), 'GET /users/{address}/portfolio', `/users/${segment(address)}/portfolio`, { page: 1, limit: 100 }),
  };
}

export type MyriadApi = ReturnType<typeof myriadApi>;
