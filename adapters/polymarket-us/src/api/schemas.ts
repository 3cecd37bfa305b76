import { venueValue } from '@predgate/core';
import Joi from 'joi';

/**
 * Polymarket US: public reads on the gateway host, signed calls on the API
 * host. Money is `{value, currency}` with the value a decimal string; a price
 * is a fraction of the $1 a contract pays, always on the long side.
 */

export interface Amount {
  value: string;
  currency?: string;
}

export interface RawSide {
  long: boolean;
  description?: string | null;
  price?: string | null;
  id?: string | number | null;
}

/**
 * `GET /v1/markets/{slug}/settlement`: what the long side paid (1 when it
 * won, 0 when it lost, a fraction on a split). The published OpenAPI names it
 * `settlement` (a decimal); the SDK types `settlementPrice` as an Amount.
 */
export interface RawSettlement {
  slug?: string | null;
  marketSlug?: string | null;
  settlement?: number | string | null;
  settlementPrice?: { value: string | number } | number | string | null;
}

export interface RawMarket {
  slug: string;
  id?: string | null;
  eventSlug?: string | null;
  question?: string | null;
  title?: string | null;
  description?: string | null;
  active?: boolean | null;
  closed?: boolean | null;
  archived?: boolean | null;
  endDate?: string | null;
  volume?: number | string | null;
  volume24hr?: number | string | null;
  liquidity?: number | string | null;
  category?: string | null;
  orderPriceMinTickSize?: number | null;
  marketType?: string | null;
  marketSides?: RawSide[] | null;
}

export interface RawEvent {
  slug: string;
  id?: string | number | null;
  title: string;
  description?: string | null;
  image?: string | null;
  category?: string | null;
  tags?: Array<string | { label?: string | null }> | null;
  endDate?: string | null;
  volume?: number | string | null;
  volume24hr?: number | string | null;
  closed?: boolean | null;
  archived?: boolean | null;
  seriesSlug?: string | null;
  markets?: RawMarket[] | null;
}

export interface RawBook {
  bids: Array<{ px: Amount; qty: string }>;
  offers: Array<{ px: Amount; qty: string }>;
  transactTime?: string | null;
  state?: string | null;
}

export interface RawOrder {
  id: string;
  marketSlug: string;
  type?: string | null;
  price?: Amount | null;
  quantity: number | string;
  cumQuantity?: number | string | null;
  leavesQuantity?: number | string | null;
  intent: string;
  state: string;
  createTime?: string | null;
  insertTime?: string | null;
  commissionNotionalTotalCollected?: Amount | null;
  /** Average fill price, on the long side like every price. */
  avgPx?: Amount | string | null;
}

export interface RawSeries {
  slug: string;
  id?: string | number | null;
  title?: string | null;
  description?: string | null;
  recurrence?: string | null;
  active?: boolean | null;
  closed?: boolean | null;
  archived?: boolean | null;
}

/** One of the account's fills: the activity feed's trade record, which names no side. */
export interface RawTrade {
  id: string;
  marketSlug: string;
  createTime: string;
  price: Amount;
  qty: number | string;
  state?: string | null;
  isAggressor?: boolean | null;
  costBasis?: Amount | null;
  realizedPnl?: Amount | null;
}

export interface RawPosition {
  netPosition: string;
  cost: Amount;
  realized?: Amount | null;
  marketMetadata?: { title?: string | null; outcome?: string | null } | null;
}

const amount = Joi.object({ value: venueValue.numeric().required(), currency: Joi.string() });
const optional = Joi.string().allow('', null);
const number = venueValue.numeric().allow(null);
/** Volumes and liquidity are floats in the model: any magnitude is read (past 2^53 as the nearest double), never refused. */
const float = venueValue.amount().allow(null);
const side = Joi.object({
  long: Joi.boolean().required(),
  description: optional,
  price: Joi.alternatives(Joi.number().min(0).max(1), Joi.string().pattern(/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/)).allow(null),
  id: venueValue.id().allow(null),
});
export const market = Joi.object({
  slug: Joi.string().min(1).max(300).required(),
  id: venueValue.id().allow(null),
  eventSlug: optional,
  question: optional,
  title: optional,
  description: optional,
  active: Joi.boolean().allow(null),
  closed: Joi.boolean().allow(null),
  archived: Joi.boolean().allow(null),
  endDate: venueValue.time().allow(null, ''),
  volume: float,
  volume24hr: float,
  liquidity: float,
  category: optional,
  orderPriceMinTickSize: Joi.number().greater(0).max(1).allow(null),
  marketType: optional,
  marketSides: Joi.array().items(side).allow(null),
});
export const event = Joi.object({
  slug: Joi.string().min(1).max(300).required(),
  id: venueValue.id().allow(null),
  title: Joi.string().allow('').required(),
  description: optional,
  image: optional,
  category: optional,
  tags: Joi.array()
    .items(Joi.alternatives(Joi.string(), Joi.object({ label: optional })))
    .allow(null),
  endDate: venueValue.time().allow(null, ''),
  volume: float,
  volume24hr: float,
  closed: Joi.boolean().allow(null),
  archived: Joi.boolean().allow(null),
  seriesSlug: optional,
  markets: venueValue.items(market, { id: 'slug' }).allow(null),
});
const level = Joi.object({ px: amount.required(), qty: venueValue.numeric().required() });
export const book = Joi.object({
  marketData: Joi.object({
    bids: Joi.array().items(level).allow(null),
    offers: Joi.array().items(level).allow(null),
    transactTime: venueValue.time().allow(null, ''),
    state: optional,
  }).required(),
}).required();
export const order = Joi.object({
  id: Joi.string().required(),
  marketSlug: Joi.string().required(),
  type: optional,
  price: amount.allow(null),
  quantity: venueValue.numeric().required(),
  cumQuantity: number,
  leavesQuantity: number,
  intent: Joi.string()
    .pattern(/^ORDER_INTENT_(BUY|SELL)_(LONG|SHORT)$/)
    .required(),
  state: Joi.string().required(),
  createTime: venueValue.time().allow(null, ''),
  insertTime: venueValue.time().allow(null, ''),
  commissionNotionalTotalCollected: amount.allow(null),
  avgPx: Joi.alternatives(amount, venueValue.numeric()).allow(null),
}).or('createTime', 'insertTime');
export const balances = Joi.object({
  balances: Joi.array()
    .items(Joi.object({ currentBalance: Joi.number().required(), buyingPower: Joi.number().required(), currency: Joi.string().required() }))
    .required(),
}).required();
/** The positions page: a map keyed by market slug, its entries checked one by one as `positionList` (see the client). */
export const positionsPage = Joi.object({
  positions: Joi.object().pattern(Joi.string(), Joi.any()).required(),
  nextCursor: Joi.string().allow('', null),
  eof: Joi.boolean(),
}).required();
/** The map's entries as a list, each with its slug: one unreadable position is left out as drift, the others read. */
export const positionList = Joi.object({
  positions: venueValue
    .items(
      Joi.object({
        slug: Joi.string().min(1).max(300).required(),
        netPosition: venueValue.numeric().required(),
        cost: amount.required(),
        realized: amount.allow(null),
        marketMetadata: Joi.object().allow(null),
      }),
      { id: 'slug' },
    )
    .required(),
}).required();
export const series = Joi.object({
  slug: Joi.string().min(1).max(300).required(),
  id: venueValue.id().allow(null),
  title: optional,
  description: optional,
  recurrence: optional,
  active: Joi.boolean().allow(null),
  closed: Joi.boolean().allow(null),
  archived: Joi.boolean().allow(null),
});
const trade = Joi.object({
  id: Joi.string().min(1).max(200).required(),
  marketSlug: Joi.string().min(1).max(300).required(),
  createTime: venueValue.time().required(),
  price: amount.required(),
  qty: venueValue.numeric().required(),
  state: optional,
  isAggressor: Joi.boolean().allow(null),
  costBasis: amount.allow(null),
  realizedPnl: amount.allow(null),
});
/** The activity feed: trades and other account movements; only trades are read, each checked on its own. */
export const activities = Joi.object({
  activities: venueValue
    .items(Joi.object({ type: Joi.string().required(), trade: Joi.when('type', { is: 'ACTIVITY_TYPE_TRADE', then: trade.required() }) }))
    .required(),
  nextCursor: Joi.string().allow('', null),
  eof: Joi.boolean(),
}).required();

const settlementPrice = venueValue.amount();
/** A settlement answer: the price in either documented member, the slug it names checked by the caller. */
export const settlement = Joi.object({
  slug: Joi.string().max(300).allow('', null),
  marketSlug: Joi.string().max(300).allow('', null),
  settlement: settlementPrice.allow(null),
  settlementPrice: Joi.alternatives(Joi.object({ value: settlementPrice.required() }), settlementPrice).allow(null),
}).required();
