import { PredgateError, collectingDrift, invalidArgument } from '@predgate/core';
import type { Order, OrderHistoryParams } from '@predgate/core';
import { venueId } from '../venue.js';
import type { LimitlessContext } from '../context.js';
import { qualifiedOrderId } from '../ids.js';
import { normalizeUserOrder, readableUserOrders, userOrderDrift } from '../normalize/account.js';

/** Order ids remembered with their market (the venue looks orders up per market only). */
const rememberedOrders = 2_000;

/** The venue lists a caller's orders per market only, so the market is required. */
export async function fetchOpenOrders(ctx: LimitlessContext, marketId?: string): Promise<Order[]> {
  if (marketId === undefined) throw invalidArgument('marketId', `${venueId} lists open orders per market: give the market slug`);
  const orders = await ctx.api.userOrders(marketId, ['LIVE'], ctx.sign);
  return rememberOrders(
    ctx,
    readableUserOrders(orders).map((order) => normalizeUserOrder(order, marketId)),
  );
}

/** Fully matched orders of a market (the venue keeps no list of cancelled ones). */
export const fetchClosedOrders = (ctx: LimitlessContext, params?: OrderHistoryParams) => ordersOf(ctx, 'fetchClosedOrders', ['MATCHED'], params);

export const fetchAllOrders = (ctx: LimitlessContext, params?: OrderHistoryParams) => ordersOf(ctx, 'fetchAllOrders', ['LIVE', 'MATCHED'], params);

/** Found in its market's live and matched orders (the venue has no lookup by id). */
export const fetchOrder = (ctx: LimitlessContext, orderId: string) => orderIn(ctx, orderId, ['LIVE', 'MATCHED']);

/** The order is read from its market's live orders first, so it can be returned as it stood, now cancelled. */
export async function cancelOrder(ctx: LimitlessContext, orderId: string): Promise<Order> {
  const order = await orderIn(ctx, orderId, ['LIVE']);
  await ctx.api.cancelOrder(order.id, ctx.sign);
  ctx.marketOfOrder.delete(order.id);
  return { ...order, status: 'cancelled' as const, remaining: 0 };
}

/** Remembers each order's market, the newest kept, the oldest forgotten past the bound. */
export function rememberOrders<T extends { id: string; marketId: string }>(ctx: LimitlessContext, orders: T[]): T[] {
  for (const order of orders) {
    ctx.marketOfOrder.delete(order.id);
    ctx.marketOfOrder.set(order.id, order.marketId);
    if (ctx.marketOfOrder.size > rememberedOrders) ctx.marketOfOrder.delete(ctx.marketOfOrder.keys().next().value!);
  }
  return orders;
}

/** The market of an order: named with it (`<slug>:<id>`), or remembered from an order this instance placed or listed. */
function locateOrder(ctx: LimitlessContext, orderId: string): { slug: string; id: string } {
  const qualified = qualifiedOrderId.exec(orderId);
  if (qualified) return { slug: qualified[1]!, id: qualified[2]! };
  const slug = ctx.marketOfOrder.get(orderId);
  if (slug) return { slug, id: orderId };
  throw invalidArgument('orderId', `${venueId} finds orders per market only: give the order as "<market slug>:<order id>", or list the market's orders first`, {
    orderId: orderId.slice(0, 200),
  });
}

async function orderIn(ctx: LimitlessContext, orderId: string, statuses: string[]): Promise<Order> {
  const { slug, id } = locateOrder(ctx, orderId);
  const { value: orders, reports } = await collectingDrift(() => ctx.api.userOrders(slug, statuses, ctx.sign));
  // The order itself sent unreadable (left out of the list as drift) answers its drift error naming the field.
  const unreadable = reports.find((report) => report.detail?.item === id);
  if (unreadable) throw unreadable;
  const raw = orders.find((order) => String(order.id) === id);
  if (!raw) {
    throw new PredgateError(
      'ORDER_NOT_FOUND',
      `Order not found among the ${statuses.join(' and ').toLowerCase()} orders of ${slug.slice(0, 100)}: ${id.slice(0, 100)}`,
      {
        detail: { orderId: id, marketId: slug },
      },
    );
  }
  // The order itself read outside the model answers its drift error naming the field.
  const drift = userOrderDrift(raw);
  if (drift) throw drift;
  return normalizeUserOrder(raw, slug);
}

/** The caller's orders of one market in the given statuses; the venue has no all-markets list and no cursor. */
async function ordersOf(ctx: LimitlessContext, method: string, statuses: string[], params: OrderHistoryParams = {}): Promise<Order[]> {
  if (params.marketId === undefined) throw invalidArgument('params.marketId', `${venueId} lists orders per market: give the market slug`);
  if (params.cursor !== undefined) throw invalidArgument('params.cursor', `${method}: ${venueId} pages no order lists (use limit)`);
  const orders = rememberOrders(
    ctx,
    readableUserOrders(await ctx.api.userOrders(params.marketId, statuses, ctx.sign, params.limit)).map((raw) => normalizeUserOrder(raw, params.marketId!)),
  );
  const since = params.since?.getTime() ?? -Infinity;
  const until = params.until?.getTime() ?? Infinity;
  const kept = orders.filter((order) => order.timestamp >= since && order.timestamp <= until);
  return params.limit === undefined ? kept : kept.slice(0, params.limit);
}
