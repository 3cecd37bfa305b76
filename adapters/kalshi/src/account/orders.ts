import { randomUUID } from 'node:crypto';
import type { CreateOrderParams, Order, OrderHistoryParams } from '@predgate/core';
import { segment } from '../api/client.js';
import { collectPages } from '../api/paging.js';
import type { RawOrder } from '../api/types.js';
import type { KalshiContext } from '../context.js';
import { invalidArgument } from '../errors.js';
import { outcomeOf, ticker } from '../ids.js';
import { timeMs } from '../normalize/numbers.js';
import { normalizeOrder } from '../normalize/orders.js';
import { liveAndHistorical } from './history.js';
import { checked } from '../api/schemas.js';

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

/**
 * createOrder. The outcome picks the contract (`side`: `TICKER` is YES,
 * `TICKER-NO` is NO) and the unified side picks `action`: selling YES is
 * `side: yes, action: sell`, not a NO purchase. Limit orders rest until
 * cancelled; market orders are immediate-or-cancel at the given worst price,
 * or at the edge of the price range when none is given.
 */
export async function createOrder(ctx: KalshiContext, params: CreateOrderParams): Promise<Order> {
  // Missing credentials are reported before any problem with the order itself.
  ctx.api.requireCredentials();
  const market = ticker(params.marketId);
  const outcome = outcomeOf(params.outcomeId);
  if (outcome.ticker !== market) {
    throw invalidArgument(ctx.origin.exchange, 'createOrder', 'params.outcomeId', `"outcomeId" ${params.outcomeId} is not an outcome of market ${market}`);
  }
  const price = params.price ?? (params.side === 'buy' ? 0.99 : 0.01);
  if (price <= 0 || price >= 1) {
    throw invalidArgument(
      ctx.origin.exchange,
      'createOrder',
      'params.price',
      `"price" must lie strictly between 0 and 1 on ${ctx.origin.exchange} (got ${price})`,
    );
  }
  const body = {
    ticker: market,
    // Kalshi's idempotency key: a retried submission cannot place a second order.
    client_order_id: randomUUID(),
    side: outcome.side,
    action: params.side,
    count_fp: params.amount.toFixed(2),
    [`${outcome.side}_price_dollars`]: price.toFixed(4),
    time_in_force: params.type === 'market' ? 'immediate_or_cancel' : 'good_till_canceled',
  };
  const { order } = checked<{ order: RawOrder }>(
    'POST /portfolio/orders',
    ctx.origin.exchange,
    await ctx.api.account<unknown>('POST', '/portfolio/orders', { body }),
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
