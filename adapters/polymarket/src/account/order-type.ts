import { invalidArgument } from '@predgate/core';
import type { CreateOrderParams, OrderControl } from '@predgate/core';
import { venueId } from '../venue.js';

/** pmxt's order controls the CLOB honours: its order types and post-only, and an expiry for GTD. */
export const honouredOrderControls: OrderControl[] = ['timeInForce', 'postOnly', 'expiry'];

/** The CLOB's order types: GTC and GTD rest, FOK and FAK (pmxt's IOC) take what they can at once. */
export type ClobOrderType = 'GTC' | 'GTD' | 'FOK' | 'FAK';

/** The venue refuses a GTD expiration closer than this (its safety margin of one minute). */
const minExpiryLeadMs = 60_000;

/** What the placement body says about how long the order lives: its order type, expiration (unix seconds, "0" for none) and post-only flag. */
export interface OrderLifetime {
  orderType: ClobOrderType;
  expiration: string;
  postOnly: boolean;
}

/**
 * Reads pmxt's `timeInForce`, `expiry` and `postOnly` into the CLOB's terms. A
 * limit order rests (GTC, or GTD when it has an expiry); a market order fills
 * at once (FOK, or FAK for IOC). What the venue would refuse is refused here,
 * before anything is signed.
 */
export function orderLifetimeOf(params: CreateOrderParams, nowMs: number): OrderLifetime {
  const asked = params.timeInForce ?? (params.type === 'market' ? 'FOK' : params.expiry ? 'GTD' : 'GTC');
  const resting = asked === 'GTC' || asked === 'GTD';
  if (params.type === 'market' && resting) {
    throw invalidArgument('params.timeInForce', `a market order on ${venueId} fills at once: "timeInForce" must be FOK or IOC (got ${asked})`);
  }
  if (params.type === 'limit' && !resting) {
    throw invalidArgument('params.timeInForce', `${venueId} fills at once only market orders (FOK, IOC): a limit order is GTC or GTD (got ${asked})`);
  }
  if (asked === 'GTD' && params.expiry === undefined) throw invalidArgument('params.expiry', `a GTD order on ${venueId} needs "expiry"`);
  if (asked !== 'GTD' && params.expiry !== undefined) throw invalidArgument('params.expiry', `on ${venueId} only a GTD order expires (got ${asked})`);
  if (params.postOnly && !resting) throw invalidArgument('params.postOnly', `a post-only order on ${venueId} rests in the book: it cannot also be ${asked}`);
  if (params.expiry !== undefined && params.expiry.getTime() < nowMs + minExpiryLeadMs) {
    throw invalidArgument('params.expiry', `${venueId} needs a GTD expiry at least a minute ahead`);
  }
  return {
    orderType: asked === 'IOC' ? 'FAK' : asked,
    // Unix seconds, rounded down: the order never outlives the expiry asked for.
    expiration: params.expiry === undefined ? '0' : String(Math.floor(params.expiry.getTime() / 1000)),
    postOnly: params.postOnly ?? false,
  };
}
