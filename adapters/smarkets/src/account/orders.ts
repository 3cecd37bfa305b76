import { PredgateError, invalidArgument } from '@predgate/core';
import type { CreateOrderParams, Order, OrderHistoryParams, QueryValue } from '@predgate/core';
import { authed } from '../auth/tokens.js';
import { venueId } from '../venue.js';
import type { SmarketsContext } from '../context.js';
import { partsOfOutcomeId } from '../ids.js';
import { normalizeOrder, normalizePlacement } from '../normalize/account.js';

export async function fetchOpenOrders(ctx: SmarketsContext, marketId?: string): Promise<Order[]> {
  const query = { state: ['created', 'partial'], limit: 100, ...(marketId === undefined ? {} : { market_id: marketId }) };
  return (await authed(ctx, (auth) => ctx.api.orders(query, auth))).orders.map(normalizeOrder);
}

export async function fetchAllOrders(ctx: SmarketsContext, params: OrderHistoryParams = {}): Promise<Order[]> {
  return orderHistory(ctx, params, {});
}

/**
 * Filled and settled orders. The venue keeps no cancelled or rejected state:
 * a cancelled order's unmatched part leaves the order list, and an order
 * cancelled before any match is not listed at all.
 */
export async function fetchClosedOrders(ctx: SmarketsContext, params: OrderHistoryParams = {}): Promise<Order[]> {
  return orderHistory(ctx, params, { state: ['filled', 'settled'] });
}

/** The account's orders, newest first, in the caller's market and creation window. */
async function orderHistory(ctx: SmarketsContext, params: OrderHistoryParams, filter: Record<string, QueryValue>): Promise<Order[]> {
  const query = { ...filter, limit: Math.min(params.limit ?? 100, 100), sort: '-id', ...(params.marketId === undefined ? {} : { market_id: params.marketId }) };
  const since = params.since?.getTime() ?? -Infinity;
  const until = params.until?.getTime() ?? Infinity;
  return (await authed(ctx, (auth) => ctx.api.orders(query, auth))).orders
    .map(normalizeOrder)
    .filter((order) => order.timestamp >= since && order.timestamp <= until);
}

export async function fetchOrder(ctx: SmarketsContext, orderId: string): Promise<Order> {
  return normalizeOrder(await rawOrder(ctx, orderId));
}

/**
 * Buying backs a contract, selling lays it. Prices go in basis points and
 * quantities in ten-thousandths; a market order is immediate-or-cancel at
 * the caller's worst price, a limit order good until the market halts.
 */
export async function createOrder(ctx: SmarketsContext, params: CreateOrderParams): Promise<Order> {
  const parts = partsOfOutcomeId(params.outcomeId);
  if (!parts || parts.marketId !== params.marketId) {
    throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome ${params.outcomeId.slice(0, 60)} is not a contract of market ${params.marketId.slice(0, 40)}`, {
      detail: { marketId: params.marketId, outcomeId: params.outcomeId },
    });
  }
  if (params.price === undefined) throw invalidArgument('params.price', `${venueId} orders need a price (the worst accepted for a market order)`);
  const basisPoints = Math.round(params.price * 10_000);
  const placed = await authed(ctx, (auth) =>
    ctx.api.placeOrder(
      {
        market_id: parts.marketId,
        contract_id: parts.contractId,
        side: params.side,
        price: basisPoints,
        quantity: Math.round(params.amount * 10_000),
        type: params.type === 'market' ? 'immediate_or_cancel' : 'good_til_halted',
      },
      auth,
    ),
  );
  return normalizePlacement(placed, params.type, ctx.clock.now());
}

/** The venue answers a cancel with `{}`; the order is read first so it can be returned as cancelled. */
export async function cancelOrder(ctx: SmarketsContext, orderId: string): Promise<Order> {
  const order = await rawOrder(ctx, orderId);
  await authed(ctx, (auth) => ctx.api.cancelOrder(orderId, auth));
  return { ...normalizeOrder(order), status: 'cancelled' as const, remaining: 0 };
}

async function rawOrder(ctx: SmarketsContext, orderId: string) {
  const [order] = (await authed(ctx, (auth) => ctx.api.orders({ id: orderId, limit: 1 }, auth))).orders;
  if (!order) throw new PredgateError('ORDER_NOT_FOUND', `Order not found: ${orderId.slice(0, 40)}`, { detail: { orderId } });
  return order;
}
