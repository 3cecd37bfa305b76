import { PredgateError, toNumber } from '@predgate/core';
import type { BuiltOrder, CreateOrderParams, Order, OrderStatus } from '@predgate/core';
import type { Query } from '../api/client.js';
import { orderDomain, zeroBytes32 } from '../auth/contracts.js';
import { tradingAccountOf } from '../auth/credentials.js';
import { orderAmounts } from '../auth/order-amounts.js';
import { signOrder } from '../auth/order-signing.js';
import type { OrderStruct } from '../auth/order-signing.js';
import type { PolymarketContext } from '../context.js';
import { orderRejection } from '../errors.js';
import { normalizeOrder } from '../normalize/account.js';
import { orderLifetimeOf } from './order-type.js';
import type { ClobOrderType } from './order-type.js';
import { outcomeTokenIds } from '../normalize/markets.js';
import { venueId } from '../venue.js';

/** The JSON order the CLOB receives: the signed struct with decimal strings, plus the unsigned `expiration`. */
interface WireOrder {
  salt: number;
  maker: string;
  signer: string;
  tokenId: string;
  makerAmount: string;
  takerAmount: string;
  side: 'BUY' | 'SELL';
  signatureType: number;
  timestamp: string;
  expiration: string;
  metadata: string;
  builder: string;
  signature: string;
}

/** `BuiltOrder.raw`: the placement body without its `owner` (the API key, added when sending). */
interface PlacementDraft {
  order: WireOrder;
  orderType: ClobOrderType;
  postOnly: boolean;
  deferExec: boolean;
  /** The market's condition id: the CLOB's name for it, and `Order.marketId` as every order method reports it. */
  market: string;
}

/*
 * Orders: the account's open orders and one order by id, and placement. A
 * limit order rests until cancelled (GTC) or its expiry (GTD); a market order
 * fills at once or not at all (FOK), or as far as it can (FAK), at no worse
 * than `price`, which defaults to the edge of the price range. Placements and
 * cancels are never retried.
 */

export async function fetchOpenOrders(ctx: PolymarketContext, marketId?: string): Promise<Order[]> {
  const query: Query = marketId === undefined ? {} : { market: await ctx.lookup.conditionIdOf(marketId) };
  const orders = await ctx.clobPrivate.openOrders(query);
  return orders.map((order) => normalizeOrder(order, ctx.clock.now())).filter((order): order is Order => order !== undefined);
}

export async function fetchOrder(ctx: PolymarketContext, orderId: string): Promise<Order> {
  const order = await ctx.clobPrivate.order(orderId);
  const normalized = order?.id ? normalizeOrder(order, ctx.clock.now()) : undefined;
  if (!normalized) {
    throw new PredgateError('ORDER_NOT_FOUND', `Order not found: ${orderId}`, { exchange: venueId, detail: { orderId } });
  }
  return normalized;
}

export async function createOrder(ctx: PolymarketContext, params: CreateOrderParams): Promise<Order> {
  return submitOrder(ctx, await buildOrder(ctx, params));
}

/** Signs the order after reading the market's tick size, neg-risk flag, protocol version and minimum size. */
export async function buildOrder(ctx: PolymarketContext, params: CreateOrderParams): Promise<BuiltOrder> {
  const trader = tradingAccountOf(ctx.credentials);
  const lifetime = orderLifetimeOf(params, ctx.clock.now());
  const { market } = await ctx.lookup.require(params.marketId);
  if (!outcomeTokenIds(market).includes(params.outcomeId)) {
    throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome ${params.outcomeId} is not an outcome of market ${params.marketId}`, {
      exchange: venueId,
      detail: { marketId: params.marketId, outcomeId: params.outcomeId },
    });
  }
  const tickSize = params.tickSize ?? toNumber(market.orderPriceMinTickSize) ?? 0.01;
  const negRisk = params.negRisk ?? market.negRisk ?? false;
  const price = params.price ?? (params.side === 'buy' ? 1 - tickSize : tickSize);
  const amounts = orderAmounts({ side: params.side, type: params.type, amount: params.amount, price, tickSize });
  const min = toNumber(market.orderMinSize);
  if (amounts.size <= 0 || (min !== undefined && amounts.size < min)) {
    throw new PredgateError('ORDER_SIZE_TOO_SMALL', `${venueId}: ${params.amount} shares is below this market's minimum of ${min ?? 0.01}`, {
      exchange: venueId,
      detail: { min: min ?? 0.01, amount: params.amount },
    });
  }
  const struct: OrderStruct = {
    salt: BigInt(ctx.salt()),
    maker: trader.maker,
    signer: trader.signer,
    tokenId: BigInt(params.outcomeId),
    makerAmount: amounts.makerAmount,
    takerAmount: amounts.takerAmount,
    side: params.side === 'buy' ? 0 : 1,
    signatureType: trader.signatureType,
    timestamp: BigInt(ctx.clock.now()),
    metadata: zeroBytes32,
    builder: zeroBytes32,
  };
  const signature = await signOrder(trader.wallet, struct, orderDomain({ negRisk, protocolV2: market.version === 'v2' }));
  const order: WireOrder = {
    salt: Number(struct.salt),
    maker: struct.maker,
    signer: struct.signer,
    tokenId: params.outcomeId,
    makerAmount: String(struct.makerAmount),
    takerAmount: String(struct.takerAmount),
    side: params.side === 'buy' ? 'BUY' : 'SELL',
    signatureType: struct.signatureType,
    timestamp: String(struct.timestamp),
    expiration: lifetime.expiration,
    metadata: struct.metadata,
    builder: struct.builder,
    signature,
  };
  const raw: PlacementDraft = {
    order,
    orderType: lifetime.orderType,
    postOnly: lifetime.postOnly,
    deferExec: false,
    market: market.conditionId ?? params.marketId,
  };
  return {
    exchange: venueId,
    // What will trade: size and price as rounded for the venue, and the market facts used.
    params: { ...params, amount: amounts.size, price: amounts.price, tickSize, negRisk },
    signedOrder: { ...order },
    raw: { ...raw },
  };
}

export async function submitOrder(ctx: PolymarketContext, built: BuiltOrder): Promise<Order> {
  const draft = placementDraftOf(built);
  const body = JSON.stringify({
    order: draft.order,
    owner: await ctx.auth.apiKey(),
    orderType: draft.orderType,
    postOnly: draft.postOnly,
    deferExec: draft.deferExec,
  });
  const answer = await ctx.clobPrivate.placeOrder(body);
  if (answer.success === false || answer.errorMsg || !answer.orderID) {
    throw orderRejection(answer.errorMsg || 'the venue did not accept the order');
  }
  const status = placementStatus(answer.status);
  const amount = built.params.amount;
  const filled = status === 'filled' ? amount : 0;
  return {
    id: answer.orderID,
    marketId: draft.market,
    outcomeId: built.params.outcomeId,
    side: built.params.side,
    type: built.params.type,
    ...(built.params.price === undefined ? {} : { price: built.params.price }),
    amount,
    status,
    filled,
    remaining: status === 'open' || status === 'pending' ? amount - filled : 0,
    timestamp: Number(draft.order.timestamp),
  };
}

/** Cancels an open order and returns it as it stood, now cancelled. */
export async function cancelOrder(ctx: PolymarketContext, orderId: string): Promise<Order> {
  const order = await fetchOrder(ctx, orderId);
  const answer = await ctx.clobPrivate.cancelOrder(orderId);
  if (answer.canceled?.includes(orderId)) return { ...order, status: 'cancelled', remaining: 0 };
  const reason = answer.not_canceled?.[orderId] ?? 'the venue did not cancel the order';
  const code = /not found|does not exist|unknown/i.test(reason) ? 'ORDER_NOT_FOUND' : 'INVALID_ORDER';
  throw new PredgateError(code, `${venueId}: ${reason}`, { exchange: venueId, detail: { orderId, venueMessage: reason } });
}

/** A placement answer's `status`: `unmatched` is a marketable order that was placed but did not match yet. */
function placementStatus(status: string | undefined): OrderStatus {
  switch ((status ?? '').toLowerCase()) {
    case 'matched':
      return 'filled';
    case 'delayed':
      return 'pending';
    default:
      return 'open';
  }
}

function placementDraftOf(built: BuiltOrder): PlacementDraft {
  const raw = built.raw as Partial<PlacementDraft>;
  const order = raw.order as Partial<WireOrder> | undefined;
  if (built.exchange !== venueId || typeof order?.signature !== 'string' || typeof raw.market !== 'string' || !raw.orderType) {
    throw new PredgateError('INVALID_ORDER', `Not an order built by the ${venueId} adapter: build it with buildOrder`, { exchange: venueId });
  }
  return raw as PlacementDraft;
}
