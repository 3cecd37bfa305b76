import { venueValue } from '@predgate/core';
import Joi from 'joi';

/**
 * Gemini's prediction-market REST API: public GETs for events, books, trades
 * and candles; private calls are signed POSTs with an empty body. Every
 * number is a decimal string except candle rows and the integer ids of
 * trades and orders, which are read with `exactIntegers` (a 16-digit `tid`
 * grows towards 2^53). Lists are checked item by item.
 */

export interface RawPrices {
  buy?: { yes?: string | null; no?: string | null } | null;
  sell?: { yes?: string | null; no?: string | null } | null;
  bestBid?: string | null;
  bestAsk?: string | null;
  lastTradePrice?: string | null;
}

export interface RawContract {
  id?: string | null;
  label?: string | null;
  ticker?: string | null;
  instrumentSymbol: string;
  description?: unknown;
  prices?: RawPrices | null;
  status?: string | null;
  marketState?: string | null;
  expiryDate?: string | null;
  resolutionSide?: string | null;
  sortOrder?: number | null;
  priceDelta24hPct?: string | null;
}

export interface RawEvent {
  id?: string | null;
  ticker: string;
  title: string;
  slug?: string | null;
  description?: string | null;
  imageUrl?: string | null;
  type?: string | null;
  category?: string | null;
  series?: unknown;
  status?: string | null;
  expiryDate?: string | null;
  volume?: string | null;
  volume24h?: string | null;
  tags?: string[] | null;
  contracts: RawContract[];
}

export interface RawLevel {
  price: string;
  amount: string;
  timestamp?: string | null;
}

export interface RawTrade {
  timestampms: number;
  tid: number | string;
  price: string;
  amount: string;
  type: 'buy' | 'sell';
}

/** `[timeMs, open, high, low, close, volume]`, newest first. */
export type RawCandle = [number, number, number, number, number, number];

export interface RawOrder {
  orderId: number | string;
  status: string;
  symbol: string;
  side: 'buy' | 'sell';
  outcome: 'yes' | 'no';
  orderType?: string | null;
  quantity: string;
  filledQuantity?: string | null;
  remainingQuantity?: string | null;
  price?: string | null;
  avgExecutionPrice?: string | null;
  createdAt: string;
}

export interface RawPosition {
  symbol: string;
  outcome: 'yes' | 'no';
  totalQuantity: string;
  avgPrice: string;
  prices?: RawPrices | null;
  unrealizedPnl?: string | null;
  realizedPl?: string | null;
  contractMetadata?: { contractName?: string | null; eventTicker?: string | null } | null;
}

const decimal = venueValue.numeric();
const optional = Joi.string().allow('', null);
const prices = Joi.object({
  buy: Joi.object({ yes: decimal.allow(null), no: decimal.allow(null) }).allow(null),
  sell: Joi.object({ yes: decimal.allow(null), no: decimal.allow(null) }).allow(null),
  bestBid: decimal.allow(null),
  bestAsk: decimal.allow(null),
  lastTradePrice: decimal.allow(null),
}).allow(null);
const contract = Joi.object({
  instrumentSymbol: Joi.string().min(1).max(200).required(),
  label: optional,
  ticker: optional,
  prices,
  status: optional,
  marketState: optional,
  expiryDate: venueValue.time().allow(null, ''),
  resolutionSide: optional,
  sortOrder: Joi.number().allow(null),
  priceDelta24hPct: decimal.allow(null),
});
export const event = Joi.object({
  ticker: Joi.string().min(1).max(200).required(),
  title: Joi.string().allow('').required(),
  slug: optional,
  description: optional,
  category: optional,
  status: optional,
  expiryDate: venueValue.time().allow(null, ''),
  volume: decimal.allow(null),
  volume24h: decimal.allow(null),
  tags: Joi.array().items(Joi.string()).allow(null),
  contracts: venueValue.items(contract, { id: 'instrumentSymbol' }).required(),
});
export const eventsPage = Joi.object({
  data: venueValue.items(event, { id: 'ticker' }).required(),
  pagination: Joi.object({ total: Joi.number().integer().min(0) }),
}).required();
const level = Joi.object({ price: decimal.required(), amount: decimal.required() });
export const book = Joi.object({ bids: Joi.array().items(level).required(), asks: Joi.array().items(level).required() }).required();
export const trades = venueValue
  .items(
    Joi.object({
      timestampms: Joi.number().integer().required(),
      tid: venueValue.id().required(),
      price: decimal.required(),
      amount: decimal.required(),
      type: Joi.string().valid('buy', 'sell').required(),
    }),
    { id: 'tid' },
  )
  .required();
export const candles = Joi.array()
  .items(Joi.array().ordered(Joi.number().required(), ...Array.from({ length: 5 }, () => Joi.number().required())))
  .required();
export const order = Joi.object({
  orderId: venueValue.id().required(),
  status: Joi.string().required(),
  symbol: Joi.string().required(),
  side: Joi.string().valid('buy', 'sell').required(),
  outcome: Joi.string().valid('yes', 'no').required(),
  quantity: decimal.required(),
  filledQuantity: decimal.allow(null),
  remainingQuantity: decimal.allow(null),
  price: decimal.allow(null),
  avgExecutionPrice: decimal.allow(null),
  createdAt: venueValue.time().required(),
});
export const ordersPage = Joi.object({
  orders: venueValue.items(order, { id: 'orderId' }).required(),
  pagination: Joi.object({ count: Joi.number().integer().min(0) }),
}).required();
export const positions = Joi.object({
  positions: venueValue
    .items(
      Joi.object({
        symbol: Joi.string().required(),
        outcome: Joi.string().valid('yes', 'no').required(),
        totalQuantity: decimal.required(),
        avgPrice: decimal.required(),
        prices,
        unrealizedPnl: decimal.allow(null),
        realizedPl: decimal.allow(null),
      }),
      { id: 'symbol' },
    )
    .required(),
}).required();
