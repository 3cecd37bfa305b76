import { PredgateError, invalidArgument } from '@predgate/core';
import type { CreateOrderParams, Order } from '@predgate/core';
import { venueId } from '../context.js';
import type { PolymarketUsContext } from '../context.js';
import { partsOfOutcomeId } from '../ids.js';
import { normalizeOrder } from '../normalize/account.js';

export async function fetchOpenOrders(ctx: PolymarketUsContext, marketId?: string): Promise<Order[]> {
  return (await ctx.api.openOrders(marketId === undefined ? undefined : [marketId])).orders.map(normalizeOrder);
}

export async function fetchOrder(ctx: PolymarketUsContext, orderId: string): Promise<Order> {
  return normalizeOrder((await ctx.api.order(orderId)).order);
}

/**
 * Buying or selling the long or short side of a market. The venue takes
 * the long side's price for every intent, so a short order's price is
 * sent as its complement; prices keep to the market's tick, in [0.01, 0.99].
 */
export async function createOrder(ctx: PolymarketUsContext, params: CreateOrderParams): Promise<Order> {
  const parts = partsOfOutcomeId(params.outcomeId);
  if (!parts || parts.slug !== params.marketId) {
    throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome ${params.outcomeId.slice(0, 100)} is not an outcome of ${params.marketId.slice(0, 100)}`, {
      detail: { marketId: params.marketId, outcomeId: params.outcomeId },
    });
  }
  if (!Number.isInteger(params.amount) || params.amount < 1) throw invalidArgument('params.amount', `${venueId} contracts trade in whole numbers`);
  if (params.type === 'limit' && params.price === undefined) throw invalidArgument('params.price', 'a limit order needs a price');
  const tick = params.tickSize ?? 0.001;
  const longPrice = params.price === undefined ? undefined : parts.side === 'long' ? params.price : 1 - params.price;
  if (longPrice !== undefined && (longPrice < 0.01 || longPrice > 0.99)) throw invalidArgument('params.price', `${venueId} prices lie between 0.01 and 0.99`);
  const intent = `ORDER_INTENT_${params.side === 'buy' ? 'BUY' : 'SELL'}_${parts.side === 'long' ? 'LONG' : 'SHORT'}`;
  const placed = await ctx.api.placeOrder({
    marketSlug: parts.slug,
    intent,
    type: params.type === 'limit' ? 'ORDER_TYPE_LIMIT' : 'ORDER_TYPE_MARKET',
    ...(longPrice === undefined ? {} : { price: { value: (Math.round(longPrice / tick) * tick).toFixed(3), currency: 'USD' } }),
    quantity: params.amount,
    tif: params.type === 'limit' ? 'TIME_IN_FORCE_GOOD_TILL_CANCEL' : 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
  });
  return normalizeOrder((await ctx.api.order(placed.id)).order);
}

/** The venue's cancel needs the market slug: the order is read first, then returned cancelled. */
export async function cancelOrder(ctx: PolymarketUsContext, orderId: string): Promise<Order> {
  const order = normalizeOrder((await ctx.api.order(orderId)).order);
  await ctx.api.cancelOrder(orderId, order.marketId);
  return { ...order, status: 'cancelled' as const, remaining: 0 };
}
