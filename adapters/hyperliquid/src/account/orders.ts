import { PredgateError, toNumber } from '@predgate/core';
import type { BuiltOrder, CreateOrderParams, MyTradesParams, Order, UserTrade } from '@predgate/core';
import type { ExchangeAnswer } from '../api/schemas.js';
import { signAction } from '../auth/signer.js';
import { venueId } from '../venue.js';
import type { HyperliquidContext } from '../context.js';
import { rejection } from '../errors.js';
import { assetIdOf, sideOfCoin } from '../ids.js';
import { normalizeOpenOrder } from '../normalize/orders.js';
import { nextNonce, privateKeyOf, userOf } from './credentials.js';
import { builtBody } from './built-order.js';
import type { OrderRequestBody } from './built-order.js';
import { orderAction } from './order-action.js';

const defaultFills = 100;

/* Open orders, fills, and signed order placement and cancellation. */

export async function fetchOpenOrders(ctx: HyperliquidContext, marketId?: string): Promise<Order[]> {
  const orders = (await ctx.api.openOrders(userOf(ctx))).map(normalizeOpenOrder).filter((order): order is Order => order !== undefined);
  return marketId === undefined ? orders : orders.filter((order) => order.marketId === marketId);
}

export async function fetchMyTrades(ctx: HyperliquidContext, params: MyTradesParams = {}): Promise<UserTrade[]> {
  const since = params.since?.getTime() ?? -Infinity;
  const until = params.until?.getTime() ?? Infinity;
  const fills = await ctx.api.userFills(userOf(ctx));
  return fills
    .flatMap((fill): UserTrade[] => {
      const side = sideOfCoin(fill.coin);
      if (!side || !fill.coin.startsWith('#')) return [];
      return [
        {
          id: String(fill.tid),
          timestamp: fill.time,
          price: toNumber(fill.px)!,
          amount: toNumber(fill.sz)!,
          side: fill.side === 'B' ? 'buy' : 'sell',
          outcomeId: assetIdOf(side),
          marketId: String(side.outcome),
          orderId: String(fill.oid),
          ...(toNumber(fill.fee) === undefined ? {} : { fee: toNumber(fill.fee)! }),
        },
      ];
    })
    .filter(
      (trade) =>
        trade.timestamp >= since &&
        trade.timestamp <= until &&
        (params.marketId === undefined || trade.marketId === params.marketId) &&
        (params.outcomeId === undefined || trade.outcomeId === params.outcomeId),
    )
    .slice(0, params.limit ?? defaultFills);
}

/** createOrder: the `order` action (see `orderAction`), signed and sent at once. */
export async function createOrder(ctx: HyperliquidContext, params: CreateOrderParams): Promise<Order> {
  const key = privateKeyOf(ctx);
  const action = orderAction(params, 'createOrder');
  const nonce = nextNonce(ctx);
  const body: OrderRequestBody = { action, nonce, signature: await signAction(key, action, nonce, ctx.mainnet) };
  return placed(params, nonce, await ctx.api.exchange({ ...body }));
}

/** buildOrder: the `order` action signed with a fresh nonce and not sent; `raw` is exactly the body createOrder would send. */
export async function buildOrder(ctx: HyperliquidContext, params: CreateOrderParams): Promise<BuiltOrder> {
  const key = privateKeyOf(ctx);
  const action = orderAction(params, 'buildOrder');
  const nonce = nextNonce(ctx);
  const raw: OrderRequestBody = { action, nonce, signature: await signAction(key, action, nonce, ctx.mainnet) };
  return { exchange: venueId, params, raw: { ...raw } };
}

/** submitOrder: the built body, checked against its params and its deadline, sent as it was signed. */
export async function submitOrder(ctx: HyperliquidContext, built: BuiltOrder): Promise<Order> {
  const body = builtBody(built, ctx.clock.now());
  return placed(built.params, body.nonce, await ctx.api.exchange({ ...body }));
}

/** The order the venue's answer describes: resting, filled (at the average fill price), or refused. */
function placed(params: CreateOrderParams, nonce: number, answer: ExchangeAnswer): Order {
  const status = firstStatus(answer) as { resting?: { oid: number }; filled?: { totalSz: string; avgPx: string; oid: number }; error?: string };
  const base = { marketId: params.marketId, outcomeId: params.outcomeId, side: params.side, type: params.type, amount: params.amount, timestamp: nonce };
  if (status.resting) return { ...base, id: String(status.resting.oid), price: params.price, status: 'open', filled: 0, remaining: params.amount };
  if (status.filled) {
    const filled = toNumber(status.filled.totalSz) ?? 0;
    return {
      ...base,
      id: String(status.filled.oid),
      price: toNumber(status.filled.avgPx) ?? params.price,
      status: filled >= params.amount ? 'filled' : 'cancelled',
      filled,
      remaining: 0,
    };
  }
  throw rejection(typeof status.error === 'string' ? status.error : 'the venue answered an order status the adapter does not know');
}

/** Cancels an open order: the venue wants its asset, which the account's open orders name. */
export async function cancelOrder(ctx: HyperliquidContext, orderId: string): Promise<Order> {
  const key = privateKeyOf(ctx);
  const open = (await ctx.api.openOrders(userOf(ctx))).find((order) => String(order.oid) === orderId);
  const order = open && normalizeOpenOrder(open);
  if (!order) throw new PredgateError('ORDER_NOT_FOUND', `Order not found among the open orders: ${orderId.slice(0, 40)}`, { detail: { orderId } });
  const action = { type: 'cancel', cancels: [{ a: Number(order.outcomeId), o: Number(orderId) }] };
  const nonce = nextNonce(ctx);
  const status = firstStatus(await ctx.api.exchange({ action, nonce, signature: await signAction(key, action, nonce, ctx.mainnet) }));
  if (status === 'success') return { ...order, status: 'cancelled', remaining: 0 };
  const reason = (status as { error?: string }).error ?? 'the venue did not cancel the order';
  throw new PredgateError(/never placed|already canceled|filled|not found/i.test(reason) ? 'ORDER_NOT_FOUND' : 'INVALID_ORDER', `hyperliquid: ${reason}`, {
    detail: { orderId, venueMessage: reason },
  });
}

function firstStatus(answer: ExchangeAnswer): unknown {
  if (answer.status === 'err') throw rejection(answer.response);
  const status = answer.response.data?.statuses[0];
  if (status === undefined) throw rejection('the venue answered without a status');
  return status;
}
