import { PredgateError, invalidArgument } from '@predgate/core';
import type { CreateOrderParams, OrderControl } from '@predgate/core';
import { toWire } from '../auth/signer.js';
import { minOrderValue, venueId } from '../venue.js';
import { sideOfAssetId } from '../ids.js';

/** pmxt's order controls Hyperliquid honours, each mapped onto the order below. */
export const honouredOrderControls: OrderControl[] = ['timeInForce', 'postOnly', 'reduceOnly'];

/** The venue's time in force: good till cancelled, immediate or cancel, or add-liquidity-only (post-only). */
type VenueTif = 'Gtc' | 'Ioc' | 'Alo';

/** One order of an `order` action, its members in the venue's order (the msgpack the signature covers follows it). */
export type VenueOrder = {
  a: number;
  b: boolean;
  p: string;
  s: string;
  r: boolean;
  t: { limit: { tif: VenueTif } };
};

/** Types, not interfaces: an action is signed as a plain record. */
export type OrderAction = {
  type: 'order';
  orders: [VenueOrder];
  grouping: 'na';
};

/**
 * The `order` action for one order. A limit order rests (`Gtc`); a market
 * order is an immediate-or-cancel limit at the caller's worst price, as the
 * venue has no market orders. `timeInForce` GTC or IOC and `postOnly` (the
 * venue's add-liquidity-only, `Alo`) choose the time in force; `reduceOnly`
 * sets `r`. The venue has no fill-or-kill and no expiry: FOK and GTD are
 * refused, never sent as something else. Sizes are whole shares; an order
 * must be worth at least 10 in the quote token.
 */
export function orderAction(params: CreateOrderParams, method: string): OrderAction {
  const side = sideOfAssetId(params.outcomeId);
  if (!side || String(side.outcome) !== params.marketId) {
    throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome ${params.outcomeId.slice(0, 40)} is not an outcome of market ${params.marketId.slice(0, 40)}`, {
      detail: { marketId: params.marketId, outcomeId: params.outcomeId },
    });
  }
  const tif = venueTif(params, method);
  if (params.price === undefined) {
    throw invalidArgument(
      'params.price',
      `${venueId} has no market orders: give the worst price you accept (a market order is sent immediate-or-cancel at it)`,
    );
  }
  if (!Number.isInteger(params.amount)) throw invalidArgument('params.amount', `${venueId} outcome contracts trade in whole shares`);
  if (params.amount * params.price < minOrderValue) {
    throw new PredgateError(
      'ORDER_SIZE_TOO_SMALL',
      `${venueId} orders must be worth at least ${minOrderValue}; ${params.amount} at ${params.price} is ${params.amount * params.price}`,
      { detail: { min: minOrderValue, amount: params.amount, price: params.price } },
    );
  }
  const price = toWire(params.price);
  if (price === undefined) throw invalidArgument('params.price', `${venueId} prices carry at most 8 decimals`);
  return {
    type: 'order',
    orders: [
      { a: Number(params.outcomeId), b: params.side === 'buy', p: price, s: String(params.amount), r: params.reduceOnly === true, t: { limit: { tif } } },
    ],
    grouping: 'na',
  };
}

function venueTif(params: CreateOrderParams, method: string): VenueTif {
  const refuse = (control: OrderControl, why: string) =>
    new PredgateError('VALIDATION_ERROR', `${method}: ${venueId} ${why}`, { exchange: venueId, detail: { method, control } });
  const asked = params.timeInForce;
  if (asked === 'FOK') throw refuse('timeInForce', 'has no fill-or-kill orders: use IOC (fills what it can, cancels the rest)');
  if (asked === 'GTD') throw refuse('timeInForce', 'orders carry no expiry: use GTC and cancel the order');
  if (params.type === 'market' && (asked === 'GTC' || params.postOnly)) {
    throw refuse(asked === 'GTC' ? 'timeInForce' : 'postOnly', 'sends a market order immediate-or-cancel: it cannot rest in the book');
  }
  if (params.postOnly) {
    if (asked === 'IOC') throw refuse('postOnly', 'post-only orders rest in the book: they cannot also be IOC');
    return 'Alo';
  }
  return asked === 'IOC' || params.type === 'market' ? 'Ioc' : 'Gtc';
}
