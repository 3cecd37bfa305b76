import { checkPayload } from '@predgate/core';
import type { QueryValue, VenueHttpClient } from '@predgate/core';
import type Joi from 'joi';
import * as schema from './schemas.js';
import type { RawBook, RawEvent, RawHistory, RawMarket } from './schemas.js';

/**
 * Probable's two hosts: the market metadata API (Gamma-like: events with
 * nested markets, JSON-text outcome lists) and the order-book API (CLOB-like:
 * books, midpoints, price history, positions).
 */
export interface Hosts {
  markets: string;
  orderbook: string;
}

export function probableApi(http: VenueHttpClient, hosts: Hosts) {
  const get = async <T>(answer: Joi.Schema, endpoint: string, url: string, query?: Record<string, QueryValue>): Promise<T> =>
    checkPayload<T>(answer, await http.json({ url, query }), { venue: http.venue, endpoint });
  const segment = encodeURIComponent;

  return {
    /** A bare array as observed live; the documented `{events, pagination}` envelope is read too. */
    events: async (query: Record<string, QueryValue>): Promise<RawEvent[]> => {
      const body = await get<RawEvent[] | { events: RawEvent[] }>(schema.eventList, 'GET /events/', `${hosts.markets}/events/`, query);
      return Array.isArray(body) ? body : body.events;
    },
    event: (id: string) => get<RawEvent>(schema.event.required(), 'GET /events/{id}', `${hosts.markets}/events/${segment(id)}`),
    eventBySlug: (slug: string) => get<RawEvent>(schema.event.required(), 'GET /events/slug/{slug}', `${hosts.markets}/events/slug/${segment(slug)}`),
    search: (query: Record<string, QueryValue>) =>
      get<{ events: RawEvent[] }>(schema.searchResult, 'GET /public-search/', `${hosts.markets}/public-search/`, query),
    market: (id: string) => get<RawMarket & { event?: RawEvent | null }>(schema.marketDetail, 'GET /markets/{id}', `${hosts.markets}/markets/${segment(id)}`),
    /** One book per outcome token. */
    book: (tokenId: string) => get<RawBook>(schema.book, 'GET /book', `${hosts.orderbook}/book`, { token_id: tokenId }),
    midpoint: (tokenId: string) =>
      get<{ mid?: string | number | null }>(schema.midpoint, 'GET /midpoint', `${hosts.orderbook}/midpoint`, { token_id: tokenId }),
    /** The samples, from `{history}` or a bare list. */
    pricesHistory: async (query: Record<string, QueryValue>): Promise<RawHistory> => {
      const body = await get<RawHistory | { history: RawHistory }>(schema.priceHistory, 'GET /prices-history', `${hosts.orderbook}/prices-history`, query);
      return Array.isArray(body) ? body : body.history;
    },
    positions: (user: string) =>
      get<Array<Record<string, unknown>>>(schema.positions, 'GET /position/current', `${hosts.orderbook}/position/current`, { user, limit: 500 }),
  };
}

export type ProbableApi = ReturnType<typeof probableApi>;
