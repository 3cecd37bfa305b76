import Joi from 'joi';
import { amountValue, fraction, id } from './catalog.js';
import { timestampMs, tradeKeys } from './market-data.js';
import { argumentBounds } from './params.js';
import type { Trade } from './market-data.js';

export const orderSides = ['buy', 'sell'] as const;
export const orderTypes = ['market', 'limit'] as const;
export const orderStatuses = ['pending', 'open', 'filled', 'cancelled', 'rejected'] as const;
export type OrderSide = (typeof orderSides)[number];
export type OrderType = (typeof orderTypes)[number];
export type OrderStatus = (typeof orderStatuses)[number];

export interface Order {
  id: string;
  marketId: string;
  outcomeId: string;
  side: OrderSide;
  type: OrderType;
  /** Limit price, or the average fill price of a market order. */
  price?: number;
  /** Shares or contracts. */
  amount: number;
  status: OrderStatus;
  filled: number;
  remaining: number;
  /** Unix milliseconds of creation. */
  timestamp: number;
  fee?: number;
}

/** One of the caller's own fills. */
export interface UserTrade extends Trade {
  orderId?: string;
  marketId?: string;
  fee?: number;
}

export interface Position {
  marketId: string;
  outcomeId: string;
  outcomeLabel: string;
  /** Shares held; negative for a short where the venue allows one. */
  size: number;
  entryPrice: number;
  currentPrice: number;
  unrealizedPnL: number;
  realizedPnL?: number;
}

export interface Balance {
  currency: string;
  total: number;
  available: number;
  locked: number;
}

/**
 * Venue credentials, sent per call in the POST body. Members a venue does not
 * use are ignored by it; venues may read extra string members (`walletAddress`).
 */
export interface Credentials {
  apiKey?: string;
  apiSecret?: string;
  passphrase?: string;
  apiToken?: string;
  privateKey?: string;
  /** A number; pmxt clients also send names such as `gnosis-safe`. */
  signatureType?: number | string;
  funderAddress?: string;
  walletAddress?: string;
  [extra: string]: string | number | undefined;
}

export interface CreateOrderParams {
  marketId: string;
  outcomeId: string;
  side: OrderSide;
  type: OrderType;
  /** Shares or contracts. */
  amount: number;
  /** Required for limit orders; the worst acceptable price for market orders. */
  price?: number;
  fee?: number;
  tickSize?: number;
  negRisk?: boolean;
  /** Limitless profile id of the account traded for. */
  onBehalfOf?: number;
  /** What `amount` counts (pmxt): `shares` (default) or `quote`, the collateral to spend at the price. */
  denom?: OrderDenomination;
  /** Market orders: how far, in percent of the best price, the fill may go. */
  slippage_pct?: number;
  timeInForce?: TimeInForce;
  /** Refused rather than placed if it would take liquidity. */
  postOnly?: boolean;
  /** Only lowers a position held. */
  reduceOnly?: boolean;
  /** When a resting order lapses. */
  expiry?: Date;
}

/**
 * pmxt's order controls. Core accepts them all; each adapter names in its
 * profile's `orderControls` those its venue honours, and a call using any
 * other is refused by name rather than placed without it.
 */
export const orderControls = ['denom', 'slippage_pct', 'timeInForce', 'postOnly', 'reduceOnly', 'expiry'] as const;
export type OrderControl = (typeof orderControls)[number];
export const orderDenominations = ['shares', 'quote'] as const;
export type OrderDenomination = (typeof orderDenominations)[number];
export const timeInForceValues = ['GTC', 'IOC', 'FOK', 'GTD'] as const;
export type TimeInForce = (typeof timeInForceValues)[number];
/** The furthest ahead an order's expiry may be set. */
export const maxOrderExpiryMs = 366 * 24 * 60 * 60 * 1000;

/** An order prepared and signed but not yet sent, so a client can inspect it before `submitOrder`. */
export interface BuiltOrder {
  exchange: string;
  params: CreateOrderParams;
  expiry?: Date;
  signedOrder?: Record<string, unknown>;
  tx?: { to: string; data: string; value: string; chainId: number };
  /** The venue's own form of the order. */
  raw: Record<string, unknown>;
}

export const orderSchema = Joi.object<Order, true>({
  id: id.required(),
  marketId: id.required(),
  outcomeId: id.required(),
  side: Joi.string()
    .valid(...orderSides)
    .required(),
  type: Joi.string()
    .valid(...orderTypes)
    .required(),
  price: fraction,
  amount: amountValue.greater(0).required(),
  status: Joi.string()
    .valid(...orderStatuses)
    .required(),
  filled: amountValue.min(0).required(),
  remaining: amountValue.min(0).required(),
  timestamp: timestampMs.required(),
  fee: amountValue.min(0),
});

export const userTradeSchema = Joi.object<UserTrade, true>({
  ...tradeKeys,
  orderId: id,
  marketId: id,
  fee: amountValue.min(0),
});

export const positionSchema = Joi.object<Position, true>({
  marketId: id.required(),
  outcomeId: id.required(),
  outcomeLabel: Joi.string().allow('').required(),
  size: amountValue.required(),
  entryPrice: fraction.required(),
  currentPrice: fraction.required(),
  unrealizedPnL: amountValue.required(),
  realizedPnL: amountValue,
});

export const balanceSchema = Joi.object<Balance, true>({
  currency: Joi.string().required(),
  total: amountValue.required(),
  available: amountValue.required(),
  locked: amountValue.min(0).required(),
});

/** Long enough for an RSA private key in PEM (about 3.3 KB at 4096 bits), short enough to bound a request. */
const secret = Joi.string().max(8192);

export const credentialsSchema = Joi.object({
  apiKey: secret,
  apiSecret: secret,
  passphrase: secret,
  apiToken: secret,
  privateKey: secret,
  signatureType: Joi.alternatives(Joi.number().integer().min(0).max(255), Joi.string().max(32)),
  funderAddress: secret,
  walletAddress: secret,
})
  .pattern(Joi.string().max(64), Joi.alternatives(secret, Joi.number()))
  .max(20);

const futureExpiry = Joi.date().custom((value: Date, helpers) =>
  value.getTime() - Date.now() > maxOrderExpiryMs ? helpers.error('date.max', { limit: 'one year from now' }) : value,
);

export const createOrderParamsSchema = Joi.object<CreateOrderParams, true>({
  marketId: id.max(argumentBounds.id).required(),
  outcomeId: id.max(argumentBounds.id).required(),
  side: Joi.string()
    .valid(...orderSides)
    .required(),
  type: Joi.string()
    .valid(...orderTypes)
    .required(),
  amount: Joi.number().greater(0).required(),
  price: fraction.when('type', { is: 'limit', then: Joi.required() }),
  fee: Joi.number().min(0),
  tickSize: Joi.number().greater(0).max(1),
  negRisk: Joi.boolean(),
  onBehalfOf: Joi.number().integer(),
  denom: Joi.string().valid(...orderDenominations),
  slippage_pct: Joi.number().min(0).max(100).when('type', { not: 'market', then: Joi.forbidden() }),
  timeInForce: Joi.string().valid(...timeInForceValues),
  postOnly: Joi.boolean(),
  reduceOnly: Joi.boolean(),
  expiry: futureExpiry.greater('now'),
});

/** A built order's expiry may have passed by submit: the venue refuses it then, so only the upper bound is checked here. */
const builtOrderParamsSchema = createOrderParamsSchema.keys({ expiry: futureExpiry });

export const builtOrderSchema = Joi.object<BuiltOrder, true>({
  exchange: Joi.string().required(),
  params: builtOrderParamsSchema.required(),
  /** pmxt ≥ 2.49.1 copies the order's expiry here. */
  expiry: futureExpiry,
  signedOrder: Joi.object().unknown(true),
  tx: Joi.object({
    to: Joi.string().required(),
    data: Joi.string().required(),
    value: Joi.string().required(),
    chainId: Joi.number().integer().required(),
  }),
  raw: Joi.object().unknown(true).required(),
});
