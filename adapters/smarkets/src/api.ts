import { checkPayload, venueValue } from '@predgate/core';
import type { QueryValue, VenueHttpClient } from '@predgate/core';
import Joi from 'joi';
import type { Session } from './session.js';

/**
 * Smarkets' v3 REST API (trailing slashes required; id lists in the path,
 * comma-separated; array query parameters as repeated keys). Prices are basis
 * points of percent (5000 = 50 %), quantities ten-thousandths of the currency.
 */

export interface RawEvent {
  id: string;
  name: string;
  slug?: string | null;
  full_slug?: string | null;
  description?: string | null;
  state?: string | null;
  type?: string | { domain?: string | null; scope?: string | null } | null;
  start_datetime?: string | null;
  end_date?: string | null;
}

export interface RawMarket {
  id: string;
  event_id: string;
  name: string;
  slug?: string | null;
  description?: string | null;
  state?: string | null;
  market_type?: { name?: string | null; param?: string | null } | null;
  category?: string | null;
  winner_count?: number | null;
}

export interface RawContract {
  id: string;
  market_id: string;
  name: string;
  state_or_outcome?: string | null;
  display_order?: number | null;
  contract_type?: { name?: string | null } | null;
}

export interface RawQuoteLevel {
  price: number;
  quantity: number;
}

export interface RawOrder {
  id: string;
  market_id: string;
  contract_id: string;
  side: 'buy' | 'sell';
  type?: string | null;
  state: string;
  price: number;
  quantity: number;
  quantity_filled: number;
  quantity_unfilled: number;
  average_price_matched?: number | null;
  created_datetime: string;
}

export interface RawPlacement {
  order_id: string;
  market_id: string;
  contract_id: string;
  side: 'buy' | 'sell';
  price: number;
  quantity: number;
  available_quantity: number;
  total_executed_quantity: number;
  executed_avg_price?: number | null;
}

const id = venueValue.id();
const optional = Joi.string().allow('', null);
const basisPoints = Joi.number().integer().min(0).max(10_000);
const quantity = Joi.number().integer().min(0);

const event = Joi.object({
  id: id.required(),
  name: Joi.string().allow('').required(),
  slug: optional,
  full_slug: optional,
  description: optional,
  state: optional,
  type: Joi.alternatives(Joi.string(), Joi.object({ domain: optional, scope: optional })).allow(null),
  start_datetime: venueValue.time().allow(null, ''),
  end_date: venueValue.time().allow(null, ''),
});
/** Events and markets are checked one by one: an unreadable one is left out as drift (named by its id), never the page. */
const eventsPage = Joi.object({ events: venueValue.items(event, { id: 'id' }).required(), pagination: Joi.object({ next_page: optional }) }).required();
const markets = Joi.object({
  markets: venueValue
    .items(
      Joi.object({
        id: id.required(),
        event_id: id.required(),
        name: Joi.string().allow('').required(),
        slug: optional,
        description: optional,
        state: optional,
        market_type: Joi.object({ name: optional, param: optional }).allow(null),
        category: optional,
        winner_count: Joi.number().integer().allow(null),
      }),
      { id: 'id' },
    )
    .required(),
}).required();
const contracts = Joi.object({
  contracts: Joi.array()
    .items(
      Joi.object({
        id: id.required(),
        market_id: id.required(),
        name: Joi.string().allow('').required(),
        state_or_outcome: optional,
        display_order: Joi.number().allow(null),
        contract_type: Joi.object({ name: optional }).allow(null),
      }),
    )
    .required(),
}).required();
const volumes = Joi.object({
  volumes: Joi.array()
    .items(Joi.object({ market_id: id.required(), volume: Joi.number().min(0).required() }))
    .required(),
}).required();
const lastPrices = Joi.object({
  last_executed_prices: Joi.object()
    .pattern(Joi.string(), Joi.array().items(Joi.object({ contract_id: id.required(), last_executed_price: venueValue.numeric().allow(null) })))
    .required(),
}).required();
const level = Joi.object({ price: basisPoints.required(), quantity: quantity.required() });
const quotes = Joi.object()
  .pattern(Joi.string(), Joi.object({ bids: Joi.array().items(level).required(), offers: Joi.array().items(level).required() }))
  .required();
const session = Joi.object({ token: Joi.string().min(1).required(), stop: venueValue.time().required() }).required();
const account = Joi.object({
  account: Joi.object({
    currency: Joi.string().required(),
    balance: venueValue.numeric().required(),
    available_balance: venueValue.numeric().required(),
  }).required(),
}).required();
const order = Joi.object({
  id: id.required(),
  market_id: id.required(),
  contract_id: id.required(),
  side: Joi.string().valid('buy', 'sell').required(),
  type: optional,
  state: Joi.string().required(),
  price: basisPoints.required(),
  quantity: quantity.required(),
  quantity_filled: quantity.required(),
  quantity_unfilled: quantity.required(),
  average_price_matched: basisPoints.allow(null),
  created_datetime: venueValue.time().required(),
});
const orders = Joi.object({ orders: Joi.array().items(order).required() }).required();
const placement = Joi.object({
  order_id: id.required(),
  market_id: id.required(),
  contract_id: id.required(),
  side: Joi.string().valid('buy', 'sell').required(),
  price: basisPoints.required(),
  quantity: quantity.required(),
  available_quantity: quantity.required(),
  total_executed_quantity: quantity.required(),
  executed_avg_price: basisPoints.allow(null),
}).required();

export function smarketsApi(http: VenueHttpClient, baseUrl: string) {
  const call = async <T>(
    schema: Joi.Schema,
    endpoint: string,
    request: { path: string; method?: 'GET' | 'POST' | 'DELETE'; query?: Record<string, QueryValue>; body?: unknown; token?: string },
  ): Promise<T> => {
    const headers = request.token === undefined ? undefined : { authorization: `Session-Token ${request.token}` };
    const body = await http.json({ method: request.method ?? 'GET', url: `${baseUrl}${request.path}`, query: request.query, body: request.body, headers });
    return checkPayload<T>(schema, body, { venue: http.venue, endpoint });
  };
  const ids = (list: readonly string[]) => list.map(encodeURIComponent).join(',');

  return {
    login: (username: string, password: string) =>
      call<Session>(session, 'POST /v3/sessions/', { method: 'POST', path: '/v3/sessions/', body: { username, password } }),
    events: (query: Record<string, QueryValue>, token?: string) =>
      call<{ events: RawEvent[]; pagination?: { next_page?: string | null } }>(eventsPage, 'GET /v3/events/', { path: '/v3/events/', query, token }),
    /** At most 50 event ids per call. */
    markets: (eventIds: readonly string[], token?: string) =>
      call<{ markets: RawMarket[] }>(markets, 'GET /v3/events/{ids}/markets/', {
        path: `/v3/events/${ids(eventIds)}/markets/`,
        query: { sort: 'event_id,display_order' },
        token,
      }),
    /** `GET /v3/markets/{ids}/`: markets by id (an unknown id is left out of the list). */
    marketsById: (marketIds: readonly string[], token?: string) =>
      call<{ markets: RawMarket[] }>(markets, 'GET /v3/markets/{ids}/', { path: `/v3/markets/${ids(marketIds)}/`, token }),
    /** At most 100 market ids per call. */
    contracts: (marketIds: readonly string[], token?: string) =>
      call<{ contracts: RawContract[] }>(contracts, 'GET /v3/markets/{ids}/contracts/', { path: `/v3/markets/${ids(marketIds)}/contracts/`, token }),
    /** At most 300 market ids per call; volume in GBP. */
    volumes: (marketIds: readonly string[], token?: string) =>
      call<{ volumes: Array<{ market_id: string; volume: number }> }>(volumes, 'GET /v3/markets/{ids}/volumes/', {
        path: `/v3/markets/${ids(marketIds)}/volumes/`,
        token,
      }),
    /** At most 100 market ids per call; prices are percent strings. */
    lastPrices: (marketIds: readonly string[], token?: string) =>
      call<{ last_executed_prices: Record<string, Array<{ contract_id: string; last_executed_price?: string | number | null }>> }>(
        lastPrices,
        'GET /v3/markets/{ids}/last_executed_prices/',
        { path: `/v3/markets/${ids(marketIds)}/last_executed_prices/`, token },
      ),
    /** Keyed by contract id; delayed without a session token. */
    quotes: (marketId: string, token?: string) =>
      call<Record<string, { bids: RawQuoteLevel[]; offers: RawQuoteLevel[] }>>(quotes, 'GET /v3/markets/{id}/quotes/', {
        path: `/v3/markets/${ids([marketId])}/quotes/`,
        token,
      }),
    account: (token: string) =>
      call<{ account: { currency: string; balance: string; available_balance: string } }>(account, 'GET /v3/accounts/', { path: '/v3/accounts/', token }),
    orders: (query: Record<string, QueryValue>, token: string) =>
      call<{ orders: RawOrder[] }>(orders, 'GET /v3/orders/', { path: '/v3/orders/', query, token }),
    placeOrder: (body: Record<string, unknown>, token: string) =>
      call<RawPlacement>(placement, 'POST /v3/orders/', { method: 'POST', path: '/v3/orders/', body, token }),
    cancelOrder: (orderId: string, token: string) =>
      call<unknown>(Joi.any(), 'DELETE /v3/orders/{id}/', { method: 'DELETE', path: `/v3/orders/${ids([orderId])}/`, token }),
  };
}

export type SmarketsApi = ReturnType<typeof smarketsApi>;
