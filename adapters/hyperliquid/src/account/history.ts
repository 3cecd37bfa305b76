import { PredgateError, offsetWindow } from '@predgate/core';
import type { Order, OrderHistoryParams } from '@predgate/core';
import { venueId } from '../venue.js';
import type { HyperliquidContext } from '../context.js';
import { normalizeVenueOrder } from '../normalize/orders.js';
import { userOf } from './credentials.js';

/*
 * The account's orders from the info endpoint: one by id (`orderStatus`),
 * the open ones (`frontendOpenOrders`) and the most recent 2,000 with their
 * latest status (`historicalOrders`). Orders of perp and spot coins are not
 * this adapter's and are left out.
 */

const defaultOrders = 100;

/** A client order id: `0x` and 16 bytes of hex. */
const cloid = /^0x[0-9a-fA-F]{32}$/;

/** fetchOrder: by the venue's oid, or by the client order id it was placed with; ORDER_NOT_FOUND when the account has none. */
export async function fetchOrder(ctx: HyperliquidContext, orderId: string): Promise<Order> {
  const answer = await ctx.api.orderStatus(userOf(ctx), venueOrderId(orderId));
  const order = answer.status === 'order' ? normalizeVenueOrder(answer.order.order, answer.order.status) : undefined;
  if (!order) throw notFound(orderId);
  return order;
}

/** fetchClosedOrders: the filled, cancelled and rejected orders among the account's recent ones, newest first. */
export async function fetchClosedOrders(ctx: HyperliquidContext, params: OrderHistoryParams = {}): Promise<Order[]> {
  const orders = (await ctx.api.historicalOrders(userOf(ctx))).map((row) => normalizeVenueOrder(row.order, row.status));
  return windowOf(
    orders.filter((order): order is Order => order !== undefined && order.status !== 'open'),
    params,
  );
}

/**
 * fetchAllOrders: the open orders as they stand now and the recent closed
 * ones. An order is listed once: the open list's row (its current unfilled
 * size) wins over an older history row of the same oid.
 */
export async function fetchAllOrders(ctx: HyperliquidContext, params: OrderHistoryParams = {}): Promise<Order[]> {
  const user = userOf(ctx);
  const [open, history] = await Promise.all([ctx.api.frontendOpenOrders(user), ctx.api.historicalOrders(user)]);
  const byId = new Map<string, Order>();
  for (const order of [...open.map((row) => normalizeVenueOrder(row, 'open')), ...history.map((row) => normalizeVenueOrder(row.order, row.status))]) {
    if (order && !byId.has(order.id)) byId.set(order.id, order);
  }
  return windowOf([...byId.values()], params);
}

/** Newest first, within the window and market asked for, a page of them (the venue sends the whole list at once). */
function windowOf(orders: Order[], params: OrderHistoryParams): Order[] {
  const since = params.since?.getTime() ?? -Infinity;
  const until = params.until?.getTime() ?? Infinity;
  const kept = orders
    .filter((order) => order.timestamp >= since && order.timestamp <= until && (params.marketId === undefined || order.marketId === params.marketId))
    .sort((a, b) => b.timestamp - a.timestamp || Number(b.id) - Number(a.id));
  const { start, end } = offsetWindow(kept.length, params, defaultOrders, venueId);
  return kept.slice(start, end);
}

/** An oid goes to the venue as a number (it reads no other form), a client order id as its hex text. */
function venueOrderId(orderId: string): number | string {
  if (cloid.test(orderId)) return orderId.toLowerCase();
  const oid = /^\d{1,16}$/.test(orderId) ? Number(orderId) : undefined;
  if (oid === undefined || !Number.isSafeInteger(oid)) throw notFound(orderId);
  return oid;
}

function notFound(orderId: string): PredgateError {
  return new PredgateError('ORDER_NOT_FOUND', `Order not found: ${orderId.slice(0, 60)}`, { exchange: venueId, detail: { orderId: orderId.slice(0, 60) } });
}
