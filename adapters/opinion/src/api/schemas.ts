import { venueValue } from '@predgate/core';
import Joi from 'joi';

/**
 * Opinion's raw shapes, one schema per endpoint, naming only the fields the
 * adapter reads. Ids of markets are integers, read as numbers or numeric
 * strings; token ids are uint256 decimal strings (76-78 digits) and stay
 * strings end to end; amounts are decimal strings with up to 18 decimals,
 * read as the nearest double (a bare number past 2^53 included, never
 * refused); times are epoch seconds (books: ms). Every list is read item by
 * item: one unreadable market, child, point, order, fill or position is left
 * out as drift with its id, the rest served.
 */

/** Opinion sends market ids as integers; a numeric string reads the same. */
export type MarketId = number | string;

export interface RawChildMarket {
  marketId: MarketId;
  marketTitle: string;
  status: number;
  statusEnum?: string;
  yesLabel?: string | null;
  noLabel?: string | null;
  rules?: string | null;
  yesTokenId: string;
  noTokenId: string;
  conditionId?: string | null;
  questionId?: string | null;
  resultTokenId?: string | null;
  volume?: string | number | null;
  quoteToken?: string | null;
  chainId?: string | number | null;
  createdAt?: number | null;
  cutoffAt?: number | null;
  resolvedAt?: number | null;
  slug?: string | null;
}

export interface RawMarket extends RawChildMarket {
  /** 0 binary, 1 categorical; a child read on its own may leave it out. */
  marketType?: number;
  childMarkets?: RawChildMarket[] | null;
  volume24h?: string | number | null;
  volume7d?: string | number | null;
  labels?: string[] | null;
  labelIds?: number[] | null;
  collection?: Record<string, unknown> | null;
}

export interface RawLevel {
  price: string | number;
  size: string | number;
}

export interface RawBook {
  market?: string | null;
  tokenId?: string | null;
  /** Epoch milliseconds. */
  timestamp?: number | null;
  bids?: RawLevel[] | null;
  asks?: RawLevel[] | null;
}

export interface RawLatestPrice {
  tokenId?: string;
  price?: string | number | null;
  side?: string | null;
  timestamp?: number | null;
}

export interface RawHistory {
  history?: Array<{ t: number; p: string | number }> | null;
}

export interface RawOrder {
  orderId: string;
  status: number;
  marketId: MarketId;
  marketTitle?: string | null;
  rootMarketId?: MarketId | null;
  side: number;
  tradingMethod: number;
  outcome?: string | null;
  outcomeSide: number;
  price?: string | number | null;
  orderShares: string | number;
  filledShares?: string | number | null;
  /** Quote token spent or received on the fills so far: with `filledShares`, the average fill price. */
  filledAmount?: string | number | null;
  createdAt: number;
}

export interface RawTrade {
  txHash: string;
  marketId: MarketId;
  side: string;
  outcome?: string | null;
  outcomeSide: number;
  price: string | number;
  shares: string | number;
  fee?: string | number | null;
  createdAt: number;
}

export interface RawPosition {
  marketId: MarketId;
  outcome?: string | null;
  outcomeSide: number;
  tokenId: string;
  sharesOwned: string | number;
  avgEntryPrice: string | number;
  currentValueInQuoteToken: string | number;
  unrealizedPnl: string | number;
}

/** Amounts, prices and sizes: the model's numbers are floats, so a value past 2^53 is read as the nearest double. */
const numeric = () => venueValue.amount();
const marketId = () => Joi.alternatives(Joi.number().integer().min(0), Joi.string().pattern(/^\d{1,15}$/, 'integer'));
const optionalText = () => Joi.string().allow('', null);
const epochSeconds = () => Joi.number().integer().min(0).allow(null);
const tokenId = () => Joi.string().allow('').pattern(/^\d*$/, 'uint256 decimal string');

const childKeys = {
  marketId: marketId().required(),
  marketTitle: Joi.string().allow('').required(),
  status: Joi.number().integer().required(),
  statusEnum: optionalText(),
  yesLabel: optionalText(),
  noLabel: optionalText(),
  rules: optionalText(),
  yesTokenId: tokenId().required(),
  noTokenId: tokenId().required(),
  conditionId: optionalText(),
  questionId: optionalText(),
  resultTokenId: optionalText(),
  volume: numeric().allow('', null),
  quoteToken: optionalText(),
  chainId: Joi.alternatives(Joi.string().allow(''), Joi.number()).allow(null),
  createdAt: epochSeconds(),
  cutoffAt: epochSeconds(),
  resolvedAt: epochSeconds(),
  slug: optionalText(),
};

export const child = Joi.object(childKeys);

export const market = Joi.object({
  ...childKeys,
  marketType: Joi.number().integer().valid(0, 1),
  childMarkets: venueValue.items(child, { id: 'marketId' }).allow(null),
  volume24h: numeric().allow('', null),
  volume7d: numeric().allow('', null),
  labels: Joi.array().items(Joi.string().allow('')).allow(null),
  labelIds: Joi.array().items(Joi.number()).allow(null),
  collection: Joi.object().allow(null),
});

/** `result` of a list endpoint, read item by item (`id` names a left-out item): `list` is null when a page is empty. */
export const listOf = (item: Joi.Schema, id: string) =>
  Joi.object({ total: Joi.number().integer().min(0).allow(null), list: venueValue.items(item, { id }).allow(null).required() });

/** `result` of the detail endpoints: `data` is null when the venue has nothing under the id. */
export const detailOf = (item: Joi.Schema) => Joi.object({ data: item.allow(null) });

// A book is read whole or refused: one level left out would show a wrong best price, and each book is its own request.
const level = Joi.object({ price: numeric().required(), size: numeric().required() });
export const book = Joi.object({
  market: optionalText(),
  tokenId: optionalText(),
  timestamp: Joi.number().integer().min(0).allow(null),
  bids: Joi.array().items(level).allow(null),
  asks: Joi.array().items(level).allow(null),
});

export const latestPrice = Joi.object({ tokenId: optionalText(), price: numeric().allow('', null), side: optionalText(), timestamp: Joi.number().allow(null) });

export const history = Joi.object({
  history: venueValue.items(Joi.object({ t: Joi.number().integer().min(0).required(), p: numeric().required() }), { id: 't' }).allow(null),
});

export const order = Joi.object({
  orderId: Joi.string().min(1).required(),
  status: Joi.number().integer().valid(1, 2, 3, 4, 5).required(),
  marketId: marketId().required(),
  marketTitle: optionalText(),
  rootMarketId: marketId().allow(null),
  side: Joi.number().integer().valid(1, 2).required(),
  tradingMethod: Joi.number().integer().valid(1, 2).required(),
  outcome: optionalText(),
  outcomeSide: Joi.number().integer().valid(1, 2).required(),
  price: numeric().allow('', null),
  orderShares: numeric().required(),
  filledShares: numeric().allow('', null),
  filledAmount: numeric().allow('', null),
  createdAt: Joi.number().integer().min(0).required(),
});

export const trade = Joi.object({
  txHash: Joi.string().min(1).required(),
  marketId: marketId().required(),
  side: Joi.string().required(),
  outcome: optionalText(),
  outcomeSide: Joi.number().integer().valid(1, 2).required(),
  price: numeric().required(),
  shares: numeric().required(),
  fee: numeric().allow('', null),
  createdAt: Joi.number().integer().min(0).required(),
});

export const position = Joi.object({
  marketId: marketId().required(),
  outcome: optionalText(),
  outcomeSide: Joi.number().integer().valid(1, 2).required(),
  tokenId: Joi.string().pattern(/^\d+$/, 'uint256 decimal string').required(),
  sharesOwned: numeric().required(),
  avgEntryPrice: numeric().required(),
  currentValueInQuoteToken: numeric().required(),
  unrealizedPnl: numeric().required(),
});

/** `result` of an order lookup: `orderData` is null for an id the account does not have. */
export const orderDetail = Joi.object({ orderData: order.allow(null) });

/** `result` of a cancellation: nothing in it is read, the order is looked up afterwards. */
export const cancelled = Joi.any();

export interface RawPlaced {
  orderId?: string | number;
  orderData?: { orderId: string | number };
}

/** `result` of order placement: the new order's id, directly or under `orderData` (both forms are seen in clients). */
export const placed = Joi.object({ orderId: venueValue.id(), orderData: Joi.object({ orderId: venueValue.id().required() }) }).or('orderId', 'orderData');
