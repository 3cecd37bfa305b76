import { checkPayload } from '@predgate/core';
import type { QueryValue, VenueHttpClient } from '@predgate/core';
import Joi from 'joi';
import type { Session } from '../auth/session.js';
import { account, activity, contracts, eventsPage, lastPrices, markets, orders, placement, quotes, session, volumes } from './schemas.js';
import type { RawActivity, RawContract, RawEvent, RawMarket, RawOrder, RawPlacement, RawQuoteLevel } from './schemas.js';

/** Smarkets' v3 REST endpoints (trailing slashes required; id lists in the path, comma-separated; array query parameters as repeated keys). */
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
    /** The account's statement, newest first; `source` filters the kind of row. */
    activity: (query: Record<string, QueryValue>, token: string) =>
      call<{ account_activity: RawActivity[] }>(activity, 'GET /v3/accounts/activity/', { path: '/v3/accounts/activity/', query, token }),
    placeOrder: (body: Record<string, unknown>, token: string) =>
      call<RawPlacement>(placement, 'POST /v3/orders/', { method: 'POST', path: '/v3/orders/', body, token }),
    cancelOrder: (orderId: string, token: string) =>
      call<unknown>(Joi.any(), 'DELETE /v3/orders/{id}/', { method: 'DELETE', path: `/v3/orders/${ids([orderId])}/`, token }),
  };
}

export type SmarketsApi = ReturnType<typeof smarketsApi>;
