import { venueValue } from '@predgate/core';
import Joi from 'joi';

export interface RawPoint {
  value: number | string;
  timestamp: number;
}
export type RawChart = Array<{ timeframe: string; prices: RawPoint[] }> | Record<string, RawPoint[] | { prices: RawPoint[] }>;

/** Myriad's numeric ids, which it may send as numbers or numeric strings: read with `Number()`. */
export type NumericId = number | string;

export interface RawOutcome {
  id: NumericId;
  title?: string | null;
  price?: number | string | null;
  closingPrice?: number | string | null;
  priceChange24h?: number | string | null;
  price_charts?: RawChart | null;
}

export interface RawMarket {
  id: NumericId;
  networkId: NumericId;
  slug?: string | null;
  title?: string | null;
  shortName?: string | null;
  description?: string | null;
  expiresAt?: string | null;
  state?: string | null;
  voided?: boolean | null;
  resolvedOutcomeId?: NumericId | null;
  topics?: string[] | null;
  token?: { symbol?: string | null; decimals?: number | null; address?: string | null } | null;
  imageUrl?: string | null;
  liquidity?: number | string | null;
  volume?: number | string | null;
  volume24h?: number | string | null;
  tradingModel?: string | null;
  questionId?: number | string | null;
  outcomes: RawOutcome[];
}

export interface RawBook {
  bids: Array<[string, string]>;
  asks: Array<[string, string]>;
}

export interface RawMarketEvent {
  action: string;
  outcomeId: NumericId;
  shares: number | string;
  value: number | string;
  timestamp: number;
  txId?: string | null;
  blockNumber?: number | null;
}

/** A row of a wallet's events: a market event naming its market, whose ids Myriad may send as numbers or numeric strings. */
export interface RawUserEvent extends Omit<RawMarketEvent, 'outcomeId'> {
  marketId: number | string;
  networkId: number | string;
  outcomeId: number | string;
}

export interface RawHolding {
  marketId: NumericId;
  networkId: NumericId;
  outcomeId: NumericId;
  outcomeTitle?: string | null;
  shares: number | string;
  price: number | string;
  value: number | string;
  profit?: number | string | null;
}

/** Prices, amounts and volumes are floats in the model: past 2^53 the nearest double, never refused. */
const amount = venueValue.amount();
const numeric = amount.allow(null);
const optional = Joi.string().allow('', null);
/** Myriad's numeric ids, sent as numbers or as numeric strings. */
const numericId = Joi.alternatives(Joi.number().integer().min(0), Joi.string().pattern(/^\d{1,15}$/, 'integer'));
/** A 24-hour change of a 0-1 price lies in [-1, 1]: anything else (a percentage) leaves the market out as drift, never sent. */
const priceChange = amount
  .custom((value: unknown, helpers) => (Math.abs(Number(value)) <= 1 ? value : helpers.error('number.range')), 'price change in [-1, 1]')
  .messages({ 'number.range': '{{#label}} must be a change of a 0-1 price, in [-1, 1]' })
  .allow(null);
/** Chart points read one by one: an unreadable point is left out as drift (named by its time). */
const points = venueValue.items(Joi.object({ value: amount.required(), timestamp: Joi.number().integer().min(0).required() }), { id: 'timestamp' });
const charts = Joi.alternatives(
  Joi.array().items(Joi.object({ timeframe: Joi.string().required(), prices: points.required() })),
  Joi.object().pattern(Joi.string(), Joi.alternatives(points, Joi.object({ prices: points.required() }))),
);
const outcome = Joi.object({
  id: numericId.required(),
  title: optional,
  price: numeric,
  closingPrice: numeric,
  priceChange24h: priceChange,
  price_charts: charts.allow(null),
});
export const market = Joi.object({
  id: numericId.required(),
  networkId: numericId.required(),
  slug: optional,
  title: optional,
  shortName: optional,
  description: optional,
  expiresAt: venueValue.time().allow(null, ''),
  state: optional,
  voided: Joi.boolean().allow(null),
  // -1 until resolution.
  resolvedOutcomeId: Joi.alternatives(Joi.number().integer(), Joi.string().pattern(/^-?\d{1,15}$/, 'integer')).allow(null),
  topics: Joi.array().items(Joi.string()).allow(null),
  token: Joi.object({ symbol: optional, decimals: Joi.number().integer().allow(null), address: optional }).allow(null),
  imageUrl: optional,
  liquidity: numeric,
  volume: numeric,
  volume24h: numeric,
  tradingModel: optional,
  questionId: venueValue.id().allow(null),
  outcomes: Joi.array().items(outcome).required(),
});
/** A page read item by item: an unreadable item is left out as drift (named by its `id` member), the rest served. */
export const page = (item: Joi.Schema, id: string) =>
  Joi.object({ data: venueValue.items(item, { id }).required(), pagination: Joi.object({ hasNext: Joi.boolean() }) }).required();
const wei = Joi.string().pattern(/^\d{1,60}$/);

/** 1e18-scaled `[price, size]` tuples. */
export const book = Joi.object({
  bids: Joi.array().items(Joi.array().ordered(wei.required(), wei.required())).required(),
  asks: Joi.array().items(Joi.array().ordered(wei.required(), wei.required())).required(),
}).required();

export const marketEvent = Joi.object({
  action: Joi.string().required(),
  outcomeId: numericId.required(),
  shares: amount.required(),
  value: amount.required(),
  timestamp: Joi.number().required(),
  txId: optional,
  blockNumber: Joi.number().allow(null),
});

/** A wallet's event rows, read one by one: one unreadable row is left out as drift, the rest are the wallet's. */
export const userEvents = Joi.object({
  data: venueValue
    .items(marketEvent.keys({ marketId: numericId.required(), networkId: numericId.required(), outcomeId: numericId.required() }), { id: 'txId' })
    .required(),
}).required();

export const holding = Joi.object({
  marketId: numericId.required(),
  networkId: numericId.required(),
  outcomeId: numericId.required(),
  outcomeTitle: optional,
  shares: amount.required(),
  price: amount.required(),
  value: amount.required(),
  profit: numeric,
});
