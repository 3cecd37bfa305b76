import { isDeepStrictEqual } from 'node:util';
import { PredgateError, collectOffsetPages, invalidArgument } from '@predgate/core';
import type { BuiltOrder, CreateOrderParams, Order, OrderControl, OrderHistoryParams, TimeInForce } from '@predgate/core';
import type { GeminiApi } from '../api/client.js';
import type { RawOrder } from '../api/schemas.js';
import { defaultLimit, venueId } from '../venue.js';
import type { GeminiContext } from '../context.js';
import { sideOfOutcomeId } from '../ids.js';
import { normalizeOrder } from '../normalize/account.js';

export async function fetchOpenOrders(ctx: GeminiContext, marketId?: string): Promise<Order[]> {
  return (await orderPages(ctx.api.activeOrders, marketId === undefined ? {} : { symbol: marketId })).map(normalizeOrder);
}

export async function fetchClosedOrders(ctx: GeminiContext, params: OrderHistoryParams = {}): Promise<Order[]> {
  return history(await orderPages(ctx.api.orderHistory, params.marketId === undefined ? {} : { symbol: params.marketId }), params);
}

export async function fetchAllOrders(ctx: GeminiContext, params: OrderHistoryParams = {}): Promise<Order[]> {
  const fields = params.marketId === undefined ? {} : { symbol: params.marketId };
  const [open, closed] = [await orderPages(ctx.api.activeOrders, fields), await orderPages(ctx.api.orderHistory, fields)];
  return history([...open, ...closed], params);
}

export async function fetchOrder(ctx: GeminiContext, orderId: string): Promise<Order> {
  const fields = {};
  const found =
    (await orderPages(ctx.api.activeOrders, fields)).find((order) => String(order.orderId) === orderId) ??
    (await orderPages(ctx.api.orderHistory, fields)).find((order) => String(order.orderId) === orderId);
  if (!found) throw new PredgateError('ORDER_NOT_FOUND', `Order not found: ${orderId.slice(0, 40)}`, { detail: { orderId } });
  return normalizeOrder(found);
}

/** pmxt's time-in-force values as Gemini names them; GTD has no counterpart (Gemini orders carry no expiry). */
const timeInForceNames: Partial<Record<TimeInForce, string>> = {
  GTC: 'good-til-cancel',
  IOC: 'immediate-or-cancel',
  FOK: 'fill-or-kill',
};

/** The order controls Gemini honours: `timeInForce`, and `postOnly` as its maker-or-cancel. */
export const honouredOrderControls: OrderControl[] = ['timeInForce', 'postOnly'];

/**
 * The venue's `timeInForce`: the caller's, else a limit order rests
 * (good-til-cancel) and a market order is immediate-or-cancel; a post-only
 * order is maker-or-cancel, which rests by nature, so it takes no other
 * time in force and no market order.
 */
function timeInForceOf(params: CreateOrderParams, method: string): string {
  if (params.postOnly) {
    if (params.type === 'market') throw refused(method, 'postOnly', 'a post-only order rests on the book: it cannot be a market order');
    if (params.timeInForce !== undefined && params.timeInForce !== 'GTC')
      throw refused(method, 'timeInForce', `a post-only order is Gemini's maker-or-cancel, which rests: it cannot also be ${params.timeInForce}`);
    return 'maker-or-cancel';
  }
  if (params.timeInForce === undefined) return params.type === 'limit' ? 'good-til-cancel' : 'immediate-or-cancel';
  const name = timeInForceNames[params.timeInForce];
  if (!name)
    throw refused(
      method,
      'timeInForce',
      `${venueId} takes timeInForce ${Object.keys(timeInForceNames).join(', ')}; its orders carry no expiry (${params.timeInForce})`,
    );
  return name;
}

const refused = (method: string, control: string, why: string) =>
  new PredgateError('VALIDATION_ERROR', `${method}: ${venueId}: ${why}`, { exchange: venueId, detail: { method, control } });

const orderPath = '/v1/prediction-markets/order';

/** The place-order call, unsigned: what buildOrder hands back and submitOrder signs (with a fresh nonce) and sends. */
export interface GeminiOrderRequest {
  method: 'POST';
  path: typeof orderPath;
  fields: { symbol: string; orderType: 'limit'; side: 'buy' | 'sell'; quantity: string; price: string; outcome: 'yes' | 'no'; timeInForce: string };
}

/**
 * A limit order rests until cancelled; a market order is an
 * immediate-or-cancel limit at the caller's worst price (the venue takes
 * limit orders only). Prices are cents between 0.01 and 0.99. The time in
 * force is the caller's where given (see timeInForceOf).
 */
function orderRequest(params: CreateOrderParams, method: string): GeminiOrderRequest {
  const named = sideOfOutcomeId(params.outcomeId);
  if (!named || named.symbol !== params.marketId) {
    throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome ${params.outcomeId.slice(0, 100)} is not an outcome of ${params.marketId.slice(0, 100)}`, {
      detail: { marketId: params.marketId, outcomeId: params.outcomeId },
    });
  }
  if (params.price === undefined)
    throw invalidArgument('params.price', `${venueId} takes limit orders only: give the price (the worst price for a market order)`);
  const cents = Math.round(params.price * 100);
  if (Math.abs(params.price * 100 - cents) > 1e-9 || cents < 1 || cents > 99) {
    throw invalidArgument('params.price', `${venueId} prices are whole cents between 0.01 and 0.99, got ${params.price}`);
  }
  if (!Number.isInteger(params.amount) || params.amount < 1) throw invalidArgument('params.amount', `${venueId} contracts trade in whole numbers`);
  return {
    method: 'POST',
    path: orderPath,
    fields: {
      symbol: params.marketId,
      orderType: 'limit',
      side: params.side,
      quantity: String(params.amount),
      price: (cents / 100).toFixed(2),
      outcome: named.side,
      timeInForce: timeInForceOf(params, method),
    },
  };
}

/** buildOrder: the place-order call unsigned (Gemini signs a nonce, so the signature is made when it is sent). */
export async function buildOrder(_ctx: GeminiContext, params: CreateOrderParams): Promise<BuiltOrder> {
  return { exchange: venueId, params, raw: { ...orderRequest(params, 'buildOrder') } };
}

/** submitOrder: the built call, refused unless it is exactly the one its params make, then signed and sent as createOrder sends it. */
export async function submitOrder(ctx: GeminiContext, built: BuiltOrder): Promise<Order> {
  const request = orderRequest(built.params, 'submitOrder');
  if (!isDeepStrictEqual(built.raw, request)) {
    throw invalidArgument(
      'built.raw',
      `the built order's call is not the one its params make on ${venueId} (symbol, side, outcome, quantity, price, time in force)`,
    );
  }
  return send(ctx, request);
}

export async function createOrder(ctx: GeminiContext, params: CreateOrderParams): Promise<Order> {
  return send(ctx, orderRequest(params, 'createOrder'));
}

async function send(ctx: GeminiContext, request: GeminiOrderRequest): Promise<Order> {
  return normalizeOrder(await ctx.api.placeOrder({ ...request.fields }));
}

/**
 * The venue takes the order id as a JSON integer: one past 2^53 cannot be
 * written exactly and would name another order, so it is refused unsent.
 */
export async function cancelOrder(ctx: GeminiContext, orderId: string): Promise<Order> {
  if (!/^\d{1,18}$/.test(orderId)) throw new PredgateError('ORDER_NOT_FOUND', `Order not found: ${orderId.slice(0, 40)}`, { detail: { orderId } });
  if (!Number.isSafeInteger(Number(orderId)))
    throw invalidArgument('orderId', `${venueId} takes order ids as JSON integers: ${orderId} is past 2^53 and cannot be sent exactly`);
  return normalizeOrder(await ctx.api.cancelOrder(Number(orderId)));
}

/** Every page of an order list (100 a page, as the venue allows), up to 20 pages. */
async function orderPages(read: GeminiApi['activeOrders'], fields: Record<string, unknown>): Promise<RawOrder[]> {
  return collectOffsetPages((offset, limit) => read({ ...fields, limit, offset }).then((page) => page.orders), { pageSize: 100, maxPages: 20 });
}

function history(orders: RawOrder[], params: OrderHistoryParams) {
  const since = params.since?.getTime() ?? -Infinity;
  const until = params.until?.getTime() ?? Infinity;
  return orders
    .map(normalizeOrder)
    .filter((order) => order.timestamp >= since && order.timestamp <= until)
    .slice(0, params.limit ?? defaultLimit);
}
