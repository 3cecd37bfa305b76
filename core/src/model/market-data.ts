import Joi from 'joi';
import { amountValue, fraction, id, isoDate } from './catalog.js';

export interface OrderLevel {
  /** A fraction of one. */
  price: number;
  /** Shares or contracts, never money. */
  size: number;
  /** Resting orders at the level, where the venue says. */
  orderCount?: number;
}

export interface OrderBook {
  /** Best (highest) price first. */
  bids: OrderLevel[];
  /** Best (lowest) price first. */
  asks: OrderLevel[];
  /** Unix milliseconds: the venue's book time, or receive time when the venue sends none. */
  timestamp: number;
  /** ISO 8601 form of `timestamp`. */
  datetime: string;
  isNegRisk?: boolean;
  lastTradePrice?: number;
  sourceMetadata?: Record<string, unknown>;
}

export type TradeSide = 'buy' | 'sell' | 'unknown';

/** A print on the venue's public tape; `side` is the taker's. */
export interface Trade {
  id: string;
  /** Unix milliseconds. */
  timestamp: number;
  price: number;
  amount: number;
  side: TradeSide;
  outcomeId?: string;
}

export interface PriceCandle {
  /** Unix milliseconds of the candle's start. */
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume?: number;
}

/**
 * Unix milliseconds between 2000 and 2100: a value in seconds (a common venue
 * unit) fails loudly instead of dating a trade to January 1970.
 */
export const timestampMs = Joi.number().integer().min(946_684_800_000).max(4_102_444_800_000);

export const orderLevelSchema = Joi.object<OrderLevel, true>({
  price: fraction.required(),
  size: amountValue.greater(0).required(),
  orderCount: Joi.number().integer().min(0),
});

export const orderBookSchema = Joi.object<OrderBook, true>({
  bids: Joi.array().items(orderLevelSchema).required(),
  asks: Joi.array().items(orderLevelSchema).required(),
  timestamp: timestampMs.required(),
  datetime: isoDate.required(),
  isNegRisk: Joi.boolean(),
  lastTradePrice: fraction,
  sourceMetadata: Joi.object().unknown(true),
});

export const tradeSides = ['buy', 'sell', 'unknown'] as const;

/** Shared with UserTrade, which extends Trade. */
export const tradeKeys = {
  id: id.required(),
  timestamp: timestampMs.required(),
  price: fraction.required(),
  amount: amountValue.greater(0).required(),
  side: Joi.string()
    .valid(...tradeSides)
    .required(),
  outcomeId: id,
};

export const tradeSchema = Joi.object<Trade, true>(tradeKeys);

export const priceCandleSchema = Joi.object<PriceCandle, true>({
  timestamp: timestampMs.required(),
  open: fraction.required(),
  high: fraction.required(),
  low: fraction.required(),
  close: fraction.required(),
  volume: amountValue.min(0),
});

export interface ExecutionPriceResult {
  /** Size-weighted average price of what could be filled; 0 when nothing could. */
  price: number;
  filledAmount: number;
  fullyFilled: boolean;
}

export const executionPriceResultSchema = Joi.object<ExecutionPriceResult, true>({
  price: fraction.required(),
  filledAmount: amountValue.min(0).required(),
  fullyFilled: Joi.boolean().required(),
});
