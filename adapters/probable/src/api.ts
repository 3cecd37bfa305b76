import { checkPayload, venueValue } from '@predgate/core';
import type { QueryValue, VenueHttpClient } from '@predgate/core';
import Joi from 'joi';

/**
 * Probable's two hosts: the market metadata API (Gamma-like: events with
 * nested markets, JSON-text outcome lists) and the order-book API (CLOB-like:
 * books, midpoints, price history, positions).
 */

export interface RawToken {
  token_id: string;
  outcome?: string | null;
  price?: number | string | null;
  winner?: boolean | null;
}

export interface RawMarket {
  id: string | number;
  question?: string | null;
  title?: string | null;
  description?: string | null;
  market_slug?: string | null;
  outcomes?: string | string[] | null;
  clobTokenIds?: string | string[] | null;
  tokens?: RawToken[] | null;
  active?: boolean | null;
  closed?: boolean | null;
  archived?: boolean | null;
  resolved?: boolean | null;
  endDate?: string | null;
  volume?: string | number | null;
  volume24hr?: string | number | null;
  liquidity?: string | number | null;
  event_id?: string | number | null;
  groupItemTitle?: string | null;
  condition_id?: string | null;
  /** The market's price grid, where the venue names it. */
  orderPriceMinTickSize?: string | number | null;
}

export interface RawEvent {
  id: string | number;
  slug?: string | null;
  title: string;
  description?: string | null;
  icon?: string | null;
  image?: string | null;
  category?: string | null;
  tags?: Array<string | { label?: string | null }> | null;
  volume?: string | number | null;
  volume24hr?: string | number | null;
  markets?: RawMarket[] | null;
}

const numeric = venueValue.numeric().allow(null);
const optional = Joi.string().allow('', null);
const token = Joi.object({ token_id: Joi.string().pattern(/^\d+$/).required(), outcome: optional, price: numeric, winner: Joi.boolean().allow(null) });
const market = Joi.object({
  id: venueValue.id().required(),
  question: optional,
  title: optional,
  description: optional,
  market_slug: optional,
  outcomes: venueValue.jsonList().allow(null),
  clobTokenIds: venueValue.jsonList().allow(null),
  tokens: Joi.array().items(token).allow(null),
  active: Joi.boolean().allow(null),
  closed: Joi.boolean().allow(null),
  archived: Joi.boolean().allow(null),
  resolved: Joi.boolean().allow(null),
  endDate: venueValue.time().allow(null, ''),
  volume: numeric,
  volume24hr: numeric,
  liquidity: numeric,
  event_id: venueValue.id().allow(null),
  groupItemTitle: optional,
  condition_id: optional,
  orderPriceMinTickSize: numeric,
});
const event = Joi.object({
  id: venueValue.id().required(),
  slug: optional,
  title: Joi.string().allow('').required(),
  description: optional,
  icon: optional,
  image: optional,
  category: optional,
  tags: Joi.array()
    .items(Joi.alternatives(Joi.string(), Joi.object({ label: optional })))
    .allow(null),
  volume: numeric,
  volume24hr: numeric,
  markets: Joi.array().items(market).allow(null),
});
const level = Joi.object({ price: venueValue.numeric().required(), size: venueValue.numeric().required() });

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
