import { isDeepStrictEqual } from 'node:util';
import { PredgateError, invalidArgument } from '@predgate/core';
import type { CreateOrderParams, OrderControl, TimeInForce } from '@predgate/core';
import Joi from 'joi';
import { venueId } from '../venue.js';
import { partsOfOutcomeId } from '../ids.js';

/** pmxt's order controls this venue honours, each mapped onto the place-order body below. */
export const honouredOrderControls: OrderControl[] = ['timeInForce', 'postOnly', 'expiry'];

const timesInForce: Record<TimeInForce, string> = {
  GTC: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  GTD: 'TIME_IN_FORCE_GOOD_TILL_DATE',
  IOC: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
  FOK: 'TIME_IN_FORCE_FILL_OR_KILL',
};

/** The place-order request, unsigned: what buildOrder hands back and submitOrder signs and sends. */
export interface PolymarketUsOrderRequest {
  method: 'POST';
  path: '/v1/orders';
  body: PolymarketUsOrderBody;
}

export interface PolymarketUsOrderBody {
  marketSlug: string;
  intent: Intent;
  type: 'ORDER_TYPE_LIMIT' | 'ORDER_TYPE_MARKET';
  /** Always the long side's price, whatever the intent. */
  price?: { value: string; currency: 'USD' };
  quantity: number;
  tif: string;
  /** RFC 3339, with a good-till-date `tif`. */
  goodTillTime?: string;
  /** The venue's post-only: the order is refused rather than take liquidity. */
  participateDontInitiate?: boolean;
}

type Intent = 'ORDER_INTENT_BUY_LONG' | 'ORDER_INTENT_SELL_LONG' | 'ORDER_INTENT_BUY_SHORT' | 'ORDER_INTENT_SELL_SHORT';

const intentOf = (side: 'buy' | 'sell', outcome: 'long' | 'short') =>
  `ORDER_INTENT_${side === 'buy' ? 'BUY' : 'SELL'}_${outcome === 'long' ? 'LONG' : 'SHORT'}` as Intent;

/**
 * Buying or selling the long or short side of a market. The venue takes
 * the long side's price for every intent, so a short order's price is
 * sent as its complement; prices keep to the market's tick, in [0.01, 0.99].
 * The time in force, post-only and expiry are the caller's where given (see
 * timeInForceOf); `method` names the call in a refusal.
 */
export function orderRequest(params: CreateOrderParams, method: string): PolymarketUsOrderRequest {
  const parts = outcomeOfOrder(params);
  if (!Number.isInteger(params.amount) || params.amount < 1) throw invalidArgument('params.amount', `${venueId} contracts trade in whole numbers`);
  if (params.type === 'limit' && params.price === undefined) throw invalidArgument('params.price', 'a limit order needs a price');
  const tick = params.tickSize ?? 0.001;
  const longPrice = params.price === undefined ? undefined : parts.side === 'long' ? params.price : 1 - params.price;
  if (longPrice !== undefined && (longPrice < 0.01 || longPrice > 0.99)) throw invalidArgument('params.price', `${venueId} prices lie between 0.01 and 0.99`);
  return {
    method: 'POST',
    path: '/v1/orders',
    body: {
      marketSlug: parts.slug,
      intent: intentOf(params.side, parts.side),
      type: params.type === 'limit' ? 'ORDER_TYPE_LIMIT' : 'ORDER_TYPE_MARKET',
      ...(longPrice === undefined ? {} : { price: { value: (Math.round(longPrice / tick) * tick).toFixed(3), currency: 'USD' as const } }),
      quantity: params.amount,
      tif: timesInForce[timeInForceOf(params, method)],
      ...(params.expiry === undefined ? {} : { goodTillTime: params.expiry.toISOString() }),
      ...(params.postOnly ? { participateDontInitiate: true } : {}),
    },
  };
}

/**
 * The caller's time in force, else good-till-date with an expiry, a resting
 * limit order, or an immediate-or-cancel market order. The venue reads an
 * expiry only on a good-till-date order and a post-only one only while it
 * rests, so contradictory combinations are refused unsent rather than placed
 * with one condition dropped.
 */
function timeInForceOf(params: CreateOrderParams, method: string): TimeInForce {
  const asked = params.timeInForce ?? (params.expiry !== undefined ? 'GTD' : params.type === 'market' ? 'IOC' : 'GTC');
  if (params.type === 'market' && asked !== 'IOC' && asked !== 'FOK')
    throw refused(method, 'timeInForce', `a market order fills at once: timeInForce must be IOC or FOK (got ${asked})`);
  if (asked === 'GTD' && params.expiry === undefined) throw refused(method, 'expiry', 'a GTD order needs expiry');
  if (asked !== 'GTD' && params.expiry !== undefined) throw refused(method, 'expiry', `an expiry applies to a GTD order only (timeInForce ${asked} given)`);
  if (params.postOnly && (asked === 'IOC' || asked === 'FOK' || params.type === 'market'))
    throw refused(method, 'postOnly', `a post-only order rests in the book: it cannot be a market order or ${asked}`);
  return asked;
}

const refused = (method: string, control: string, why: string) =>
  new PredgateError('VALIDATION_ERROR', `${method}: ${venueId}: ${why}`, { exchange: venueId, detail: { method, control } });

function outcomeOfOrder(params: CreateOrderParams) {
  const parts = partsOfOutcomeId(params.outcomeId);
  if (!parts || parts.slug !== params.marketId) {
    throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome ${params.outcomeId.slice(0, 100)} is not an outcome of ${params.marketId.slice(0, 100)}`, {
      detail: { marketId: params.marketId, outcomeId: params.outcomeId },
    });
  }
  return parts;
}

const requestSchema = Joi.object<PolymarketUsOrderRequest, true>({
  method: Joi.string().valid('POST').required(),
  path: Joi.string().valid('/v1/orders').required(),
  body: Joi.object({
    marketSlug: Joi.string().min(1).max(300).required(),
    intent: Joi.string().valid('ORDER_INTENT_BUY_LONG', 'ORDER_INTENT_SELL_LONG', 'ORDER_INTENT_BUY_SHORT', 'ORDER_INTENT_SELL_SHORT').required(),
    type: Joi.string().valid('ORDER_TYPE_LIMIT', 'ORDER_TYPE_MARKET').required(),
    price: Joi.object({
      value: Joi.string()
        .pattern(/^0\.\d{3}$/)
        .required(),
      currency: Joi.string().valid('USD').required(),
    }),
    quantity: Joi.number().integer().min(1).max(1e9).required(),
    tif: Joi.string().valid('TIME_IN_FORCE_GOOD_TILL_CANCEL', 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL').required(),
  }).required(),
});

/**
 * A built order's request, checked before it is signed: only the fields
 * buildOrder writes, within their bounds, and exactly the request its
 * `params` make, so an altered request is refused, never sent.
 */
export function builtRequest(raw: unknown, params: CreateOrderParams): PolymarketUsOrderRequest {
  const { error, value } = requestSchema.validate(raw, { presence: 'optional', abortEarly: true, convert: false });
  if (error) {
    const detail = error.details[0]!;
    throw invalidArgument(`built.raw.${detail.path.join('.')}`, `the built order's request is not one buildOrder makes on ${venueId}: ${detail.message}`);
  }
  if (!isDeepStrictEqual(value, orderRequest(params, 'submitOrder'))) {
    throw invalidArgument('built.raw.body', `the built order's request does not match its params (market, outcome, side, price, quantity and controls)`);
  }
  return value;
}
