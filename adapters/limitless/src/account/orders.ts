import { randomInt } from 'node:crypto';
import { PredgateError, collectingDrift, fromBaseUnits, invalidArgument, missingCredentials, roundTo } from '@predgate/core';
import type { CreateOrderParams, Order, OrderControl, OrderHistoryParams, TimeInForce } from '@predgate/core';
import type { Hex } from 'viem';
import { getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { signOrder } from '../auth/order-signing.js';
import { unit, venueId } from '../context.js';
import type { LimitlessContext } from '../context.js';
import { qualifiedOrderId } from '../ids.js';
import { normalizeUserOrder } from '../normalize/account.js';
import { isAmm, tokenIds } from '../normalize/events.js';
import { marketBySlug } from '../reads/lookups.js';

/** pmxt's time-in-force values as Limitless' order types; IOC is its fill-and-kill (FAK); GTD has no counterpart (orders go with expiration 0). */
const orderTypes: Partial<Record<TimeInForce, string>> = { GTC: 'GTC', IOC: 'FAK', FOK: 'FOK' };

/** The order controls Limitless honours: `timeInForce` as its order type, and `postOnly` (resting GTC orders only). */
export const honouredOrderControls: OrderControl[] = ['timeInForce', 'postOnly'];

/** The venue's `orderType`: the caller's time in force, else GTC for a limit order and FOK for a market one. */
function orderTypeOf(params: CreateOrderParams): string {
  const refuse = (control: string, why: string) =>
    new PredgateError('VALIDATION_ERROR', `createOrder: ${venueId}: ${why}`, { exchange: venueId, detail: { control } });
  if (params.timeInForce === 'GTC' && params.type === 'market') throw refuse('timeInForce', 'a market order does not rest: GTC takes a limit order');
  const orderType = params.timeInForce === undefined ? (params.type === 'limit' ? 'GTC' : 'FOK') : orderTypes[params.timeInForce];
  if (!orderType) throw refuse('timeInForce', `${venueId} takes timeInForce GTC, IOC or FOK; its orders carry no expiry (${params.timeInForce})`);
  if (params.postOnly && orderType !== 'GTC') throw refuse('postOnly', 'post-only orders rest on the book: only a GTC limit order can be post-only');
  return orderType;
}

/** Order ids remembered with their market (the venue looks orders up per market only). */
const rememberedOrders = 2_000;
const zeroAddress = '0x0000000000000000000000000000000000000000';

/** The venue lists a caller's orders per market only, so the market is required. */
export async function fetchOpenOrders(ctx: LimitlessContext, marketId?: string): Promise<Order[]> {
  if (marketId === undefined) throw invalidArgument('marketId', `${venueId} lists open orders per market: give the market slug`);
  const orders = await ctx.api.userOrders(marketId, ['LIVE'], ctx.sign);
  return rememberOrders(
    ctx,
    orders.map((order) => normalizeUserOrder(order, marketId)),
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

/**
 * A limit order rests (GTC); a market order fills or is killed (FOK) at
 * the caller's price; the caller's time in force overrides either. The order is signed with `privateKey` for the
 * market's own exchange contract; the fee rate and owner id come from the
 * signer's public profile.
 */
export async function createOrder(ctx: LimitlessContext, params: CreateOrderParams): Promise<Order> {
  const key = tradingKey(ctx);
  const orderType = orderTypeOf(params);
  if (params.price === undefined) throw invalidArgument('params.price', `${venueId} orders need a price`);
  const raw = await marketBySlug(ctx, params.marketId);
  if (!raw || !raw.tokens || !raw.venue?.exchange) {
    throw new PredgateError(raw && isAmm(raw) ? 'NOT_SUPPORTED' : 'MARKET_NOT_FOUND', `${params.marketId.slice(0, 100)} is not a CLOB market of ${venueId}`, {
      detail: { marketId: params.marketId },
    });
  }
  const sideIndex = tokenIds(raw)!.indexOf(params.outcomeId);
  if (sideIndex === -1)
    throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome ${params.outcomeId.slice(0, 100)} is not an outcome of ${params.marketId.slice(0, 100)}`, {
      detail: { outcomeId: params.outcomeId },
    });
  const account = privateKeyToAccount(key);
  const maker = getAddress(ctx.credentials?.funderAddress ?? account.address);
  const profile = await ctx.api.profile(maker);
  const price = Math.round(params.price * 1000) / 1000;
  const shares = BigInt(Math.round(params.amount * unit));
  const cost = BigInt(Math.round(price * params.amount * unit));
  const buy = params.side === 'buy';
  const order = {
    salt: BigInt(randomInt(1, 2 ** 47)),
    maker,
    signer: account.address,
    taker: zeroAddress as Hex,
    tokenId: BigInt(params.outcomeId),
    makerAmount: buy ? cost : shares,
    takerAmount: buy ? shares : cost,
    expiration: 0n,
    nonce: 0n,
    feeRateBps: BigInt(profile.rank?.feeRateBps ?? 0),
    side: buy ? 0 : 1,
    signatureType: 0,
  };
  const signature = await signOrder(key, raw.venue.exchange, order);
  const body = JSON.stringify({
    order: {
      salt: Number(order.salt),
      maker: order.maker,
      signer: order.signer,
      taker: order.taker,
      tokenId: params.outcomeId,
      makerAmount: Number(order.makerAmount),
      takerAmount: Number(order.takerAmount),
      expiration: '0',
      nonce: 0,
      feeRateBps: Number(order.feeRateBps),
      side: order.side,
      signatureType: 0,
      ...(orderType === 'GTC' ? { price } : {}),
      signature,
    },
    orderType,
    ...(params.postOnly ? { postOnly: true } : {}),
    marketSlug: params.marketId,
    ownerId: Number(profile.id),
  });
  const placed = await ctx.api.placeOrder(body, ctx.sign);
  const filled = roundTo(
    (placed.makerMatches ?? []).reduce((sum, match) => sum + fromBaseUnits(match.matchedSize, 6)!, 0),
    6,
  );
  const id = String(placed.order.id);
  rememberOrders(ctx, [{ id, marketId: params.marketId }]);
  return {
    id,
    marketId: params.marketId,
    outcomeId: params.outcomeId,
    side: params.side,
    type: params.type,
    price,
    amount: params.amount,
    status: filled >= params.amount ? 'filled' : 'open',
    filled,
    remaining: Math.max(0, roundTo(params.amount - filled, 6)),
    timestamp: ctx.clock.now(),
  };
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

function tradingKey(ctx: LimitlessContext): Hex {
  const key = ctx.credentials?.privateKey;
  if (!key || !ctx.credentials?.apiKey) throw missingCredentials(venueId, ['apiKey', 'privateKey']);
  const hex = (key.startsWith('0x') ? key : `0x${key}`) as Hex;
  if (!/^0x[0-9a-fA-F]{64}$/.test(hex))
    throw new PredgateError('AUTHENTICATION_ERROR', `${venueId}: privateKey must be 32 bytes of hex`, { detail: { member: 'privateKey' } });
  return hex;
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
  return normalizeUserOrder(raw, slug);
}

/** The caller's orders of one market in the given statuses; the venue has no all-markets list and no cursor. */
async function ordersOf(ctx: LimitlessContext, method: string, statuses: string[], params: OrderHistoryParams = {}): Promise<Order[]> {
  if (params.marketId === undefined) throw invalidArgument('params.marketId', `${venueId} lists orders per market: give the market slug`);
  if (params.cursor !== undefined) throw invalidArgument('params.cursor', `${method}: ${venueId} pages no order lists (use limit)`);
  const orders = rememberOrders(
    ctx,
    (await ctx.api.userOrders(params.marketId, statuses, ctx.sign, params.limit)).map((raw) => normalizeUserOrder(raw, params.marketId!)),
  );
  const since = params.since?.getTime() ?? -Infinity;
  const until = params.until?.getTime() ?? Infinity;
  const kept = orders.filter((order) => order.timestamp >= since && order.timestamp <= until);
  return params.limit === undefined ? kept : kept.slice(0, params.limit);
}
