import { PredgateError, invalidArgument, toNumber } from '@predgate/core';
import type { BuiltOrder, CreateOrderParams, Order } from '@predgate/core';
import type { RawOrder } from '../api/private.js';
import { zeroAddress } from '../auth/contracts.js';
import { tradingAccountOf } from '../auth/credentials.js';
import { signOrder } from '../auth/order-signing.js';
import type { OrderStruct } from '../auth/order-signing.js';
import { venueId } from '../venue.js';
import type { ProbableContext } from '../context.js';
import { orderRejection } from '../errors.js';
import { parseOrderId, toOrder } from '../normalize/account.js';
import { outcomeTokens } from '../normalize/markets.js';
import { orderAmounts } from './order-amounts.js';

/** The placement body as the SDK posts it (`owner` = the maker); `BuiltOrder.raw`, sent byte for byte. */
interface Placement {
  deferExec: boolean;
  order: {
    salt: string;
    maker: string;
    signer: string;
    taker: string;
    tokenId: string;
    makerAmount: string;
    takerAmount: string;
    side: 'BUY' | 'SELL';
    expiration: string;
    nonce: string;
    feeRateBps: string;
    signatureType: number;
    signature: string;
  };
  owner: string;
  orderType: 'GTC' | 'FOK';
}

/** The SDK's price grid when the market names none. */
const defaultTick = 0.001;
/** Open orders are read 20 a page (the SDK's page), at most this many pages. */
const openPageSize = 20;
const maxOpenPages = 25;

/**
 * Signs an order for a token of the named market. A limit order rests (GTC);
 * a market order fills at once or not at all (FOK) at no worse than `price`,
 * which defaults to the edge of the price range. Amounts are 18-decimal
 * integers; the price must be on the market's tick grid.
 */
export async function buildOrder(ctx: ProbableContext, params: CreateOrderParams): Promise<BuiltOrder> {
  const trader = tradingAccountOf(ctx.credentials);
  if (!/^\d{1,12}$/.test(params.marketId)) throw invalidArgument('params.marketId', `"params.marketId" must be a Probable market id (digits)`);
  if (!/^\d{1,100}$/.test(params.outcomeId)) throw invalidArgument('params.outcomeId', `"params.outcomeId" must be an outcome token id (digits)`);
  const market = await ctx.api.market(params.marketId);
  if (!outcomeTokens(market).some((token) => token.tokenId === params.outcomeId)) {
    throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome ${params.outcomeId.slice(0, 40)} is not an outcome of market ${params.marketId}`, {
      exchange: venueId,
      detail: { marketId: params.marketId, outcomeId: params.outcomeId },
    });
  }
  const tickSize = params.tickSize ?? toNumber(market.orderPriceMinTickSize) ?? defaultTick;
  const price = params.price ?? (params.side === 'buy' ? 1 - tickSize : tickSize);
  const amounts = orderAmounts({ side: params.side, amount: params.amount, price, tickSize });
  const struct: OrderStruct = {
    salt: BigInt(ctx.salt()),
    maker: trader.maker,
    signer: trader.signer,
    taker: zeroAddress,
    tokenId: BigInt(params.outcomeId),
    makerAmount: amounts.makerAmount,
    takerAmount: amounts.takerAmount,
    expiration: 0n,
    nonce: 0n,
    feeRateBps: BigInt(ctx.feeRateBps),
    side: params.side === 'buy' ? 0 : 1,
    signatureType: trader.signatureType,
  };
  const signature = await signOrder(trader.wallet, ctx.exchange, struct);
  const placement: Placement = {
    deferExec: true,
    order: {
      salt: String(struct.salt),
      maker: struct.maker,
      signer: struct.signer,
      taker: struct.taker,
      tokenId: params.outcomeId,
      makerAmount: String(struct.makerAmount),
      takerAmount: String(struct.takerAmount),
      side: params.side === 'buy' ? 'BUY' : 'SELL',
      expiration: '0',
      nonce: '0',
      feeRateBps: String(struct.feeRateBps),
      signatureType: struct.signatureType,
      signature,
    },
    owner: struct.maker,
    orderType: params.type === 'limit' ? 'GTC' : 'FOK',
  };
  return {
    exchange: venueId,
    // What will trade: the size and price signed, and the tick used.
    params: { ...params, amount: amounts.size, price: amounts.price, tickSize },
    signedOrder: { ...placement.order },
    raw: { ...placement },
  };
}

export async function submitOrder(ctx: ProbableContext, built: BuiltOrder): Promise<Order> {
  const placement = placementOf(built);
  // A placement needs the key that signed it: credentials checked before anything is sent.
  tradingAccountOf(ctx.credentials);
  const answer = await ctx.private.placeOrder(JSON.stringify(placement));
  if (!('orderId' in answer)) {
    throw orderRejection(answer.msg || `the venue refused the order (code ${String(answer.code)})`, { code: answer.code });
  }
  return toOrder(answer, { marketId: built.params.marketId, tokenId: placement.order.tokenId });
}

export async function createOrder(ctx: ProbableContext, params: CreateOrderParams): Promise<Order> {
  return submitOrder(ctx, await buildOrder(ctx, params));
}

/** Cancels one order (`{orderId}:{tokenId}`); the venue answers the order as it now stands. */
export async function cancelOrder(ctx: ProbableContext, id: string): Promise<Order> {
  const { orderId, tokenId } = parseOrderId(id);
  tradingAccountOf(ctx.credentials);
  const answer = await ctx.private.cancelOrder(orderId, tokenId);
  if (!('orderId' in answer)) {
    throw orderRejection(answer.msg || `the venue did not cancel the order (code ${String(answer.code)})`, { code: answer.code, orderId: id });
  }
  return toOrder(answer, { tokenId });
}

export async function fetchOrder(ctx: ProbableContext, id: string): Promise<Order> {
  const { orderId, tokenId } = parseOrderId(id);
  return toOrder(await ctx.private.order(orderId, tokenId), { tokenId });
}

/**
 * The account's open orders; for one market, those of its two tokens
 * (`token_ids`; pmxt sent the market id as `eventId`).
 */
export async function fetchOpenOrders(ctx: ProbableContext, marketId?: string): Promise<Order[]> {
  let tokenIds: string | undefined;
  if (marketId !== undefined) {
    if (!/^\d{1,12}$/.test(marketId)) throw invalidArgument('marketId', `"marketId" must be a Probable market id (digits)`);
    tokenIds = outcomeTokens(await ctx.api.market(marketId))
      .map((token) => token.tokenId)
      .join(',');
  }
  const raws: RawOrder[] = [];
  for (let page = 1; page <= maxOpenPages; page += 1) {
    const batch = await ctx.private.openOrders({ page, limit: openPageSize, token_ids: tokenIds });
    raws.push(...batch);
    if (batch.length < openPageSize) break;
  }
  // Pages may shift while they are read: an order seen twice is kept once.
  const orders = new Map<string, Order>();
  for (const raw of raws) {
    const order = toOrder(raw, { marketId });
    if (!orders.has(order.id)) orders.set(order.id, order);
  }
  return [...orders.values()];
}

function placementOf(built: BuiltOrder): Placement {
  const raw = built.raw as Partial<Placement>;
  if (
    built.exchange !== venueId ||
    typeof raw.order?.signature !== 'string' ||
    typeof raw.order.tokenId !== 'string' ||
    raw.order.tokenId !== built.params.outcomeId ||
    (raw.orderType !== 'GTC' && raw.orderType !== 'FOK')
  ) {
    throw new PredgateError('INVALID_ORDER', `Not an order built by the ${venueId} adapter: build it with buildOrder`, { exchange: venueId });
  }
  return raw as Placement;
}
