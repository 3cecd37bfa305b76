import { checkPayload, venueValue } from '@predgate/core';
import type { QueryValue, VenueHttpClient } from '@predgate/core';
import Joi from 'joi';
import { event, level, market, numeric } from './schemas.js';
import type { RawEvent, RawMarket } from './schemas.js';

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
  const get = async <T>(schema: Joi.Schema, endpoint: string, url: string, query?: Record<string, QueryValue>): Promise<T> =>
    checkPayload<T>(schema, await http.json({ url, query }), { venue: http.venue, endpoint });
  const segment = encodeURIComponent;

  return {
    /** A bare array as observed live; the documented `{events, pagination}` envelope is read too. */
    events: async (query: Record<string, QueryValue>): Promise<RawEvent[]> => {
      const body = await get<RawEvent[] | { events: RawEvent[] }>(
        Joi.alternatives(Joi.array().items(event), Joi.object({ events: Joi.array().items(event).required() })).required(),
        'GET /events/',
        `${hosts.markets}/events/`,
        query,
      );
      return Array.isArray(body) ? body : body.events;
    },
    event: (id: string) => get<RawEvent>(event.required(), 'GET /events/{id}', `${hosts.markets}/events/${segment(id)}`),
    eventBySlug: (slug: string) => get<RawEvent>(event.required(), 'GET /events/slug/{slug}', `${hosts.markets}/events/slug/${segment(slug)}`),
    search: (query: Record<string, QueryValue>) =>
      get<{ events: RawEvent[] }>(
        Joi.object({ events: Joi.array().items(event).required() }).required(),
        'GET /public-search/',
        `${hosts.markets}/public-search/`,
        query,
      ),
    market: (id: string) =>
      get<RawMarket & { event?: RawEvent | null }>(
        market.keys({ event: event.allow(null) }).required(),
        'GET /markets/{id}',
        `${hosts.markets}/markets/${segment(id)}`,
      ),
    /** One book per outcome token. */
    book: (tokenId: string) =>
      get<{
        bids: Array<{ price: string; size: string }>;
        asks: Array<{ price: string; size: string }>;
        timestamp?: string | number | null;
        neg_risk?: boolean | null;
      }>(
        Joi.object({
          bids: Joi.array().items(level).required(),
          asks: Joi.array().items(level).required(),
          timestamp: venueValue.time().allow(null, ''),
          neg_risk: Joi.boolean().allow(null),
        }).required(),
        'GET /book',
        `${hosts.orderbook}/book`,
        { token_id: tokenId },
      ),
    midpoint: (tokenId: string) =>
      get<{ mid?: string | number | null }>(Joi.object({ mid: numeric }).required(), 'GET /midpoint', `${hosts.orderbook}/midpoint`, { token_id: tokenId }),
    pricesHistory: (query: Record<string, QueryValue>) =>
      get<{ history: Array<{ t: number; p: number | string }> }>(
        Joi.object({
          history: Joi.array()
            .items(Joi.object({ t: Joi.number().required(), p: venueValue.numeric().required() }))
            .required(),
        }).required(),
        'GET /prices-history',
        `${hosts.orderbook}/prices-history`,
        query,
      ),
    positions: (user: string) =>
      get<Array<Record<string, unknown>>>(
        Joi.array()
          .items(Joi.object({ size: venueValue.numeric().required() }).or('asset', 'token_id').or('avgPrice', 'avg_price'))
          .required(),
        'GET /position/current',
        `${hosts.orderbook}/position/current`,
        { user, limit: 500 },
      ),
  };
}

export type ProbableApi = ReturnType<typeof probableApi>;
