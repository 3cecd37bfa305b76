import { venueValue } from '@predgate/core';
import Joi from 'joi';

export interface RawPoint {
  value: number | string;
  timestamp: number;
}
export type RawChart = Array<{ timeframe: string; prices: RawPoint[] }> | Record<string, RawPoint[] | { prices: RawPoint[] }>;

export interface RawOutcome {
  id: number;
  title?: string | null;
  price?: number | string | null;
  closingPrice?: number | string | null;
  priceChange24h?: number | string | null;
  price_charts?: RawChart | null;
}

export interface RawMarket {
  id: number;
  networkId: number;
  slug?: string | null;
  title?: string | null;
  shortName?: string | null;
  description?: string | null;
  expiresAt?: string | null;
  state?: string | null;
  voided?: boolean | null;
  resolvedOutcomeId?: number | null;
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
  outcomeId: number;
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
  marketId: number;
  networkId: number;
  outcomeId: number;
  outcomeTitle?: string | null;
  shares: number | string;
  price: number | string;
  value: number | string;
  profit?: number | string | null;
}

const numeric = venueValue.numeric().allow(null);
const optional = Joi.string().allow('', null);
const points = Joi.array().items(Joi.object({ value: venueValue.numeric().required(), timestamp: Joi.number().integer().min(0).required() }));
const charts = Joi.alternatives(
  Joi.array().items(Joi.object({ timeframe: Joi.string().required(), prices: points.required() })),
  Joi.object().pattern(Joi.string(), Joi.alternatives(points, Joi.object({ prices: points.required() }))),
);
const outcome = Joi.object({
  id: Joi.number().integer().min(0).required(),
  title: optional,
  price: numeric,
  closingPrice: numeric,
  priceChange24h: numeric,
  price_charts: charts.allow(null),
});
export const market = Joi.object({
  id: Joi.number().integer().min(0).required(),
  networkId: Joi.number().integer().required(),
  slug: optional,
  title: optional,
  shortName: optional,
  description: optional,
  expiresAt: venueValue.time().allow(null, ''),
  state: optional,
  voided: Joi.boolean().allow(null),
  resolvedOutcomeId: Joi.number().integer().allow(null),
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
export const page = (item: Joi.Schema) =>
  Joi.object({ data: Joi.array().items(item).required(), pagination: Joi.object({ hasNext: Joi.boolean() }) }).required();
const wei = Joi.string().pattern(/^\d{1,60}$/);

/** 1e18-scaled `[price, size]` tuples. */
export const book = Joi.object({
  bids: Joi.array().items(Joi.array().ordered(wei.required(), wei.required())).required(),
  asks: Joi.array().items(Joi.array().ordered(wei.required(), wei.required())).required(),
}).required();

export const marketEvent = Joi.object({
  action: Joi.string().required(),
  outcomeId: Joi.number().integer().required(),
  shares: venueValue.numeric().required(),
  value: venueValue.numeric().required(),
  timestamp: Joi.number().required(),
  txId: optional,
  blockNumber: Joi.number().allow(null),
});

/** Myriad's numeric ids, sent as numbers or as numeric strings. */
const numericId = Joi.alternatives(Joi.number().integer().min(0), Joi.string().pattern(/^\d{1,15}$/));

/** A wallet's event rows, read one by one: one unreadable row is left out as drift, the rest are the wallet's. */
export const userEvents = Joi.object({
  data: venueValue
    .items(marketEvent.keys({ marketId: numericId.required(), networkId: numericId.required(), outcomeId: numericId.required() }), { id: 'txId' })
    .required(),
}).required();

export const holding = Joi.object({
  marketId: Joi.number().integer().required(),
  networkId: Joi.number().integer().required(),
  outcomeId: Joi.number().integer().required(),
  outcomeTitle: optional,
  shares: venueValue.numeric().required(),
  price: venueValue.numeric().required(),
  value: venueValue.numeric().required(),
  profit: numeric,
});
