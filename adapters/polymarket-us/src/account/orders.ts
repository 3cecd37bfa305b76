import { PredgateError } from '@predgate/core';
import type { BuiltOrder, CreateOrderParams, Order } from '@predgate/core';
import { venueId } from '../venue.js';
import type { PolymarketUsContext } from '../context.js';
import { normalizeOrder } from '../normalize/account.js';
import { builtRequest, orderRequest } from './order-request.js';
import type { PolymarketUsOrderRequest } from './order-request.js';

export async function fetchOpenOrders(ctx: PolymarketUsContext, marketId?: string): Promise<Order[]> {
  return (await ctx.api.openOrders(marketId === undefined ? undefined : [marketId])).orders.map(normalizeOrder);
}

export async function fetchOrder(ctx: PolymarketUsContext, orderId: string): Promise<Order> {
  return normalizeOrder((await ctx.api.order(orderId)).order);
}

/** buildOrder: the place-order request, unsigned, for the caller to inspect before submitOrder signs and sends it. */
export async function buildOrder(ctx: PolymarketUsContext, params: CreateOrderParams): Promise<BuiltOrder> {
  const request = orderRequest(params, 'buildOrder');
  return { exchange: venueId, params, ...(params.expiry === undefined ? {} : { expiry: params.expiry }), raw: { ...request } };
}

/** submitOrder: the built request, checked against its params, signed and sent as createOrder sends it; refused unsent once its expiry has passed. */
export async function submitOrder(ctx: PolymarketUsContext, built: BuiltOrder): Promise<Order> {
  const expiry = built.expiry ?? built.params.expiry;
  if (expiry !== undefined && expiry.getTime() <= ctx.clock.now()) {
    throw new PredgateError('BUILT_ORDER_EXPIRED', `The order's expiry (${expiry.toISOString()}) has passed: it was not placed`, {
      exchange: venueId,
      detail: { expiry: expiry.toISOString() },
    });
  }
  return send(ctx, builtRequest(built.raw, built.params));
}

/** createOrder: built and sent at once; the venue answers the new id, and the order is read back. */
export async function createOrder(ctx: PolymarketUsContext, params: CreateOrderParams): Promise<Order> {
  return send(ctx, orderRequest(params, 'createOrder'));
}

async function send(ctx: PolymarketUsContext, request: PolymarketUsOrderRequest): Promise<Order> {
  const placed = await ctx.api.placeOrder({ ...request.body });
  return normalizeOrder((await ctx.api.order(placed.id)).order);
}

/** The venue's cancel needs the market slug: the order is read first, then returned cancelled. */
export async function cancelOrder(ctx: PolymarketUsContext, orderId: string): Promise<Order> {
  const order = normalizeOrder((await ctx.api.order(orderId)).order);
  await ctx.api.cancelOrder(orderId, order.marketId);
  return { ...order, status: 'cancelled' as const, remaining: 0 };
}
