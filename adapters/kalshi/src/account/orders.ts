import { PredgateError } from '@predgate/core';
import type { BuiltOrder, CreateOrderParams, Order, OrderHistoryParams } from '@predgate/core';
import { segment } from '../api/client.js';
import { collectPages } from '../api/paging.js';
import type { RawOrder } from '../api/types.js';
import type { KalshiContext } from '../context.js';
import { ticker } from '../ids.js';
import { timeMs } from '../normalize/numbers.js';
import { normalizeOrder } from '../normalize/orders.js';
import { liveAndHistorical } from './history.js';
import { checked } from '../api/schemas.js';
import { builtRequest, orderRequest } from './order-request.js';
import type { KalshiOrderRequest } from './order-request.js';

const defaultOrders = 100;
const ordersPage = 200;

/** fetchOpenOrders: the resting orders, of one market when `marketId` is given. */
export async function fetchOpenOrders(ctx: KalshiContext, marketId?: string): Promise<Order[]> {
  const orders = await collectPages<RawOrder>(
    'orders',
    (cursor, remaining) =>
      ctx.api.account('GET', '/portfolio/orders', {
        query: { status: 'resting', ticker: marketId === undefined ? undefined : ticker(marketId), limit: Math.min(ordersPage, remaining), cursor },
      }),
    Number.POSITIVE_INFINITY,
    ctx.config.maxPages,
    { venue: ctx.origin.exchange, endpoint: 'GET /portfolio/orders' },
  );
  return orders.map(normalizeOrder);
}

/** fetchAllOrders: resting, executed and cancelled orders, live and historical, newest first. */
export async function fetchAllOrders(ctx: KalshiContext, params: OrderHistoryParams = {}): Promise<Order[]> {
  return (await orderHistory(ctx, params)).map(normalizeOrder);
}

/** fetchClosedOrders: the executed and cancelled ones among them. */
export async function fetchClosedOrders(ctx: KalshiContext, params: OrderHistoryParams = {}): Promise<Order[]> {
  return (await orderHistory(ctx, params)).map(normalizeOrder).filter((order) => order.status !== 'open' && order.status !== 'pending');
}

/** fetchOrder: one order by id; ORDER_NOT_FOUND when the venue knows none. */
export async function fetchOrder(ctx: KalshiContext, orderId: string): Promise<Order> {
  const { order } = checked<{ order: RawOrder }>(
    'GET /portfolio/orders/{id}',
    ctx.origin.exchange,
    await ctx.api.account<unknown>('GET', `/portfolio/orders/${segment(orderId)}`),
  );
  return normalizeOrder(order);
}

/** buildOrder: the create-order request, unsigned, for the caller to inspect before submitOrder signs and sends it. */
export async function buildOrder(ctx: KalshiContext, params: CreateOrderParams): Promise<BuiltOrder> {
  const request = await orderRequest(ctx, params, 'buildOrder');
  return { exchange: ctx.origin.exchange, params, ...(params.expiry === undefined ? {} : { expiry: params.expiry }), raw: { ...request } };
}

/** submitOrder: the built request, checked against its params, signed and sent; refused unsent once its expiry has passed. */
export async function submitOrder(ctx: KalshiContext, built: BuiltOrder): Promise<Order> {
  ctx.api.requireCredentials();
  const expiry = built.expiry ?? built.params.expiry;
  if (expiry !== undefined && expiry.getTime() <= ctx.clock.now()) {
    throw new PredgateError('BUILT_ORDER_EXPIRED', `The order's expiry (${expiry.toISOString()}) has passed: it was not placed`, {
      exchange: ctx.origin.exchange,
      detail: { expiry: expiry.toISOString() },
    });
  }
  return send(ctx, builtRequest(ctx, built.raw, built.params));
}

/** createOrder: built and sent at once; missing credentials are reported before any problem with the order itself. */
export async function createOrder(ctx: KalshiContext, params: CreateOrderParams): Promise<Order> {
  ctx.api.requireCredentials();
  return send(ctx, await orderRequest(ctx, params, 'createOrder'));
}

async function send(ctx: KalshiContext, request: KalshiOrderRequest): Promise<Order> {
  const { order } = checked<{ order: RawOrder }>(
    'POST /portfolio/orders',
    ctx.origin.exchange,
    await ctx.api.account<unknown>(request.method, request.path, { body: request.body }),
  );
  return normalizeOrder(order);
}

/** cancelOrder: `DELETE /portfolio/orders/{id}`; the answer is the order as cancelled. */
export async function cancelOrder(ctx: KalshiContext, orderId: string): Promise<Order> {
  const { order } = checked<{ order: RawOrder }>(
    'DELETE /portfolio/orders/{id}',
    ctx.origin.exchange,
    await ctx.api.account<unknown>('DELETE', `/portfolio/orders/${segment(orderId)}`),
  );
  return normalizeOrder(order);
}

function orderHistory(ctx: KalshiContext, params: OrderHistoryParams): Promise<RawOrder[]> {
  return liveAndHistorical<RawOrder>(ctx, {
    listKey: 'orders',
    livePath: '/portfolio/orders',
    historicalPath: '/historical/orders',
    ticker: params.marketId === undefined ? undefined : ticker(params.marketId),
    since: params.since,
    until: params.until,
    cursor: params.cursor,
    wanted: params.limit ?? defaultOrders,
    pageSize: ordersPage,
    idOf: (order) => order.order_id,
    timeOf: (order) => timeMs(order.created_time),
  });
}
