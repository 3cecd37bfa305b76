import { venueValue } from '@predgate/core';
import Joi from 'joi';

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

/** Prices, volumes and sizes are floats in the model: a value past 2^53 is read as the nearest double, never refused. */
export const numeric = venueValue.amount().allow(null);
const optional = Joi.string().allow('', null);
const token = Joi.object({ token_id: Joi.string().pattern(/^\d+$/).required(), outcome: optional, price: numeric, winner: Joi.boolean().allow(null) });
export const market = Joi.object({
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
export const event = Joi.object({
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
  // One unreadable market is left out as drift (named by its id), never its event.
  markets: venueValue.items(market, { id: 'id' }).allow(null),
});
export const level = Joi.object({ price: venueValue.numeric().required(), size: venueValue.numeric().required() });

/** Events read one by one: an unreadable event is left out as drift (named by its id), never the page. */
const events = venueValue.items(event, { id: 'id' });

/** `GET /events/`: a bare array as observed live, or the documented `{events, pagination}` envelope. */
export const eventList = Joi.alternatives(events, Joi.object({ events: events.required() })).required();

/** `GET /public-search/`. */
export const searchResult = Joi.object({ events: events.required() }).required();

/** `GET /markets/{id}`: the market with its event. */
export const marketDetail = market.keys({ event: event.allow(null) }).required();

export interface RawBook {
  bids: Array<{ price: string; size: string }>;
  asks: Array<{ price: string; size: string }>;
  timestamp?: string | number | null;
  neg_risk?: boolean | null;
}

/** `GET /book`: one outcome token's book. */
export const book = Joi.object({
  bids: Joi.array().items(level).required(),
  asks: Joi.array().items(level).required(),
  timestamp: venueValue.time().allow(null, ''),
  neg_risk: Joi.boolean().allow(null),
}).required();

/** `GET /midpoint`. */
export const midpoint = Joi.object({ mid: numeric }).required();

export type RawHistory = Array<{ t: number; p: number | string }>;

/** Price samples read one by one: an unreadable one is left out as drift (named by its time). */
const points = venueValue.items(Joi.object({ t: Joi.number().required(), p: venueValue.amount().required() }), { id: 't' });

/** `GET /prices-history`: `{history: [...]}` as documented, or the bare list of samples (both are read by public clients). */
export const priceHistory = Joi.alternatives(Joi.object({ history: points.required() }), points).required();

/** `GET /position/current`: rows in camelCase or snake_case. */
export const positions = venueValue
  .items(Joi.object({ size: venueValue.amount().required() }).or('asset', 'token_id').or('avgPrice', 'avg_price'), { id: 'asset' })
  .required();
