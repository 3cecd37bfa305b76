import { isDeepStrictEqual } from 'node:util';
import { PredgateError, fromBaseUnits, invalidArgument, missingCredentials, roundTo } from '@predgate/core';
import type { BuiltOrder, CreateOrderParams, Order, OrderControl, TimeInForce } from '@predgate/core';
import Joi from 'joi';
import type { Hex } from 'viem';
import { getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { signOrder } from '../auth/order-signing.js';
import { unit, venueId } from '../venue.js';
import type { LimitlessContext } from '../context.js';
import { isAmm, tokenIds } from '../normalize/events.js';
import { marketBySlug } from '../reads/lookups.js';
import { rememberOrders } from './orders.js';

/** pmxt's time-in-force values as Limitless' order types; IOC is its fill-and-kill (FAK); GTD has no counterpart (orders go with expiration 0). */
const orderTypes: Partial<Record<TimeInForce, string>> = { GTC: 'GTC', IOC: 'FAK', FOK: 'FOK' };

/** The order controls Limitless honours: `timeInForce` as its order type, and `postOnly` (resting GTC orders only). */
export const honouredOrderControls: OrderControl[] = ['timeInForce', 'postOnly'];

const zeroAddress = '0x0000000000000000000000000000000000000000';

/** The signed CTF-exchange order of `POST /orders`, as the venue reads it (amounts in raw 6-decimal units). */
export interface WireOrder {
  salt: number;
  maker: string;
  signer: string;
  taker: string;
  tokenId: string;
  makerAmount: number;
  takerAmount: number;
  expiration: '0';
  nonce: 0;
  feeRateBps: number;
  side: 0 | 1;
  signatureType: 0;
  /** GTC orders only. */
  price?: number;
  signature: string;
}

/** The body of `POST /orders`: what buildOrder hands back in `raw` and submitOrder signs (HMAC headers) and sends. */
export interface OrderRequestBody {
  order: WireOrder;
  orderType: string;
  postOnly?: true;
  marketSlug: string;
  ownerId: number;
}

/**
 * What the caller's params decide, whatever the market and profile: the
 * order type, the price on the venue's 0.001 tick, the side and the raw
 * amounts (a buy pays USDC for shares, a sell the reverse). `method` names
 * the call in a refusal.
 */
function orderTerms(params: CreateOrderParams, method: string) {
  const orderType = orderTypeOf(params, method);
  if (params.price === undefined) throw invalidArgument('params.price', `${venueId} orders need a price`);
  const price = Math.round(params.price * 1000) / 1000;
  const shares = Math.round(params.amount * unit);
  const cost = Math.round(price * params.amount * unit);
  const buy = params.side === 'buy';
  return {
    orderType,
    price,
    side: buy ? (0 as const) : (1 as const),
    makerAmount: buy ? cost : shares,
    takerAmount: buy ? shares : cost,
    postOnly: params.postOnly ? (true as const) : undefined,
  };
}

/** The venue's `orderType`: the caller's time in force, else GTC for a limit order and FOK for a market one. */
function orderTypeOf(params: CreateOrderParams, method: string): string {
  const refuse = (control: string, why: string) =>
    new PredgateError('VALIDATION_ERROR', `${method}: ${venueId}: ${why}`, { exchange: venueId, detail: { control } });
  if (params.timeInForce === 'GTC' && params.type === 'market') throw refuse('timeInForce', 'a market order does not rest: GTC takes a limit order');
  const orderType = params.timeInForce === undefined ? (params.type === 'limit' ? 'GTC' : 'FOK') : orderTypes[params.timeInForce];
  if (!orderType) throw refuse('timeInForce', `${venueId} takes timeInForce GTC, IOC or FOK; its orders carry no expiry (${params.timeInForce})`);
  if (params.postOnly && orderType !== 'GTC') throw refuse('postOnly', 'post-only orders rest on the book: only a GTC limit order can be post-only');
  return orderType;
}

/**
 * buildOrder: the `POST /orders` body, its order EIP-712 signed with
 * `privateKey` for the market's own exchange contract, the fee rate and owner
 * id from the signer's public profile; nothing is sent. The request itself is
 * signed (HMAC headers, timestamped) by submitOrder when it is sent.
 */
export async function buildOrder(ctx: LimitlessContext, params: CreateOrderParams, method = 'buildOrder'): Promise<BuiltOrder> {
  const key = tradingKey(ctx);
  const terms = orderTerms(params, method);
  const raw = await marketBySlug(ctx, params.marketId);
  const tokens = raw && tokenIds(raw);
  if (!raw || !tokens || !raw.venue?.exchange) {
    throw new PredgateError(raw && isAmm(raw) ? 'NOT_SUPPORTED' : 'MARKET_NOT_FOUND', `${params.marketId.slice(0, 100)} is not a CLOB market of ${venueId}`, {
      detail: { marketId: params.marketId },
    });
  }
  if (!tokens.includes(params.outcomeId))
    throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome ${params.outcomeId.slice(0, 100)} is not an outcome of ${params.marketId.slice(0, 100)}`, {
      detail: { outcomeId: params.outcomeId },
    });
  const { signer, maker } = tradingAccount(ctx, key);
  const profile = await ctx.api.profile(maker);
  const order = {
    salt: ctx.salt(),
    maker,
    signer,
    taker: zeroAddress as Hex,
    tokenId: BigInt(params.outcomeId),
    makerAmount: BigInt(terms.makerAmount),
    takerAmount: BigInt(terms.takerAmount),
    expiration: 0n,
    nonce: 0n,
    feeRateBps: BigInt(profile.rank?.feeRateBps ?? 0),
    side: terms.side,
    signatureType: 0,
  };
  const signature = await signOrder(key, raw.venue.exchange, order);
  const wire: WireOrder = {
    salt: Number(order.salt),
    maker,
    signer,
    taker: zeroAddress,
    tokenId: params.outcomeId,
    makerAmount: terms.makerAmount,
    takerAmount: terms.takerAmount,
    expiration: '0',
    nonce: 0,
    feeRateBps: Number(order.feeRateBps),
    side: terms.side,
    signatureType: 0,
    ...(terms.orderType === 'GTC' ? { price: terms.price } : {}),
    signature,
  };
  const body = requestBody({ order: wire, orderType: terms.orderType, postOnly: terms.postOnly, marketSlug: params.marketId, ownerId: Number(profile.id) });
  // What will trade: the price as rounded to the venue's tick.
  return { exchange: venueId, params: { ...params, price: terms.price }, signedOrder: { ...wire }, raw: { ...body } };
}

/** createOrder: built and sent at once, exactly as buildOrder then submitOrder do it. */
export async function createOrder(ctx: LimitlessContext, params: CreateOrderParams): Promise<Order> {
  return submitOrder(ctx, await buildOrder(ctx, params, 'createOrder'));
}

/**
 * submitOrder: the built body, checked (see builtBody), sent as signed with
 * this instance's HMAC headers, exactly as createOrder sends it; never
 * retried. The answer's matches say how much filled at once.
 */
export async function submitOrder(ctx: LimitlessContext, built: BuiltOrder): Promise<Order> {
  const body = builtBody(ctx, built);
  const placed = await ctx.api.placeOrder(JSON.stringify(body), ctx.sign);
  const filled = roundTo(
    (placed.makerMatches ?? []).reduce((sum, match) => sum + fromBaseUnits(match.matchedSize, 6)!, 0),
    6,
  );
  const id = String(placed.order.id);
  const { params } = built;
  rememberOrders(ctx, [{ id, marketId: params.marketId }]);
  return {
    id,
    marketId: params.marketId,
    outcomeId: params.outcomeId,
    side: params.side,
    type: params.type,
    price: body.order.price ?? params.price!,
    amount: params.amount,
    status: filled >= params.amount ? 'filled' : 'open',
    filled,
    remaining: Math.max(0, roundTo(params.amount - filled, 6)),
    timestamp: ctx.clock.now(),
  };
}

const address = Joi.string().pattern(/^0x[0-9a-fA-F]{40}$/);
const rawAmount = Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER);
const bodySchema = Joi.object<OrderRequestBody, true>({
  order: Joi.object<WireOrder, true>({
    salt: Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER).required(),
    maker: address.required(),
    signer: address.required(),
    taker: Joi.string().valid(zeroAddress).required(),
    tokenId: Joi.string()
      .pattern(/^\d{1,78}$/)
      .required(),
    makerAmount: rawAmount.required(),
    takerAmount: rawAmount.required(),
    expiration: Joi.string().valid('0').required(),
    nonce: Joi.number().valid(0).required(),
    feeRateBps: Joi.number().integer().min(0).max(10_000).required(),
    side: Joi.number().valid(0, 1).required(),
    signatureType: Joi.number().valid(0).required(),
    price: Joi.number().min(0).max(1),
    signature: Joi.string()
      .pattern(/^0x[0-9a-fA-F]{130}$/)
      .required(),
  }).required(),
  orderType: Joi.string().valid('GTC', 'FOK', 'FAK').required(),
  postOnly: Joi.boolean().valid(true),
  marketSlug: Joi.string().min(1).max(300).required(),
  ownerId: Joi.number().integer().min(0).max(Number.MAX_SAFE_INTEGER).required(),
});

/**
 * A built order's body, checked before it is sent: only the members
 * buildOrder writes, within their bounds; exactly the terms its `params` make
 * (market, token, side, type, price, amounts, post-only), so the order
 * answered is the order placed; maker and signer this instance's; and any
 * expiry the caller copied onto it not passed. Otherwise it is refused
 * unsent. (Limitless orders carry expiration 0: nothing else makes one stale.)
 */
function builtBody(ctx: LimitlessContext, built: BuiltOrder): OrderRequestBody {
  if (built.exchange !== venueId)
    throw invalidArgument('built.exchange', `the built order was made for ${String(built.exchange).slice(0, 50)}, not ${venueId}`);
  const { error, value } = bodySchema.validate(built.raw, { presence: 'optional', abortEarly: true, convert: false, allowUnknown: false });
  if (error) {
    const detail = error.details[0]!;
    throw invalidArgument(`built.raw.${detail.path.join('.')}`, `the built order is not one buildOrder makes on ${venueId}: ${detail.message}`);
  }
  const terms = orderTerms(built.params, 'submitOrder');
  const made = {
    tokenId: built.params.outcomeId,
    makerAmount: terms.makerAmount,
    takerAmount: terms.takerAmount,
    side: terms.side,
    price: terms.orderType === 'GTC' ? terms.price : undefined,
    orderType: terms.orderType,
    postOnly: terms.postOnly,
    marketSlug: built.params.marketId,
  };
  const sent = { ...pickTerms(value.order), orderType: value.orderType, postOnly: value.postOnly, marketSlug: value.marketSlug };
  if (!isDeepStrictEqual(sent, made)) {
    throw invalidArgument(
      'built.raw.order',
      `the built order does not match its params on ${venueId} (market, outcome, side, type, price, amounts, post-only): it was changed after buildOrder`,
    );
  }
  const { signer, maker } = tradingAccount(ctx, tradingKey(ctx));
  if (value.order.signer !== signer || value.order.maker !== maker) {
    throw invalidArgument('built.raw.order.signer', `the built order was signed for another account than this ${venueId} instance's`);
  }
  const expiry = built.expiry ?? built.params.expiry;
  if (expiry !== undefined && expiry.getTime() <= ctx.clock.now()) {
    throw new PredgateError('BUILT_ORDER_EXPIRED', `The built order's expiry (${expiry.toISOString()}) has passed: it was not sent`, {
      exchange: venueId,
      detail: { expiry: expiry.toISOString() },
    });
  }
  return requestBody(value);
}

function pickTerms(order: WireOrder) {
  return { tokenId: order.tokenId, makerAmount: order.makerAmount, takerAmount: order.takerAmount, side: order.side, price: order.price };
}

/** The body with its members in the order the venue is sent them (a body that travelled as JSON is sent as built). */
function requestBody(body: { order: WireOrder; orderType: string; postOnly?: true; marketSlug: string; ownerId: number }): OrderRequestBody {
  const { order } = body;
  return {
    order: {
      salt: order.salt,
      maker: order.maker,
      signer: order.signer,
      taker: order.taker,
      tokenId: order.tokenId,
      makerAmount: order.makerAmount,
      takerAmount: order.takerAmount,
      expiration: order.expiration,
      nonce: order.nonce,
      feeRateBps: order.feeRateBps,
      side: order.side,
      signatureType: order.signatureType,
      ...(order.price === undefined ? {} : { price: order.price }),
      signature: order.signature,
    },
    orderType: body.orderType,
    ...(body.postOnly ? { postOnly: true as const } : {}),
    marketSlug: body.marketSlug,
    ownerId: body.ownerId,
  };
}

function tradingKey(ctx: LimitlessContext): Hex {
  const key = ctx.credentials?.privateKey;
  if (!key || !ctx.credentials?.apiKey) throw missingCredentials(venueId, ['apiKey', 'privateKey']);
  const hex = (key.startsWith('0x') ? key : `0x${key}`) as Hex;
  if (!/^0x[0-9a-fA-F]{64}$/.test(hex))
    throw new PredgateError('AUTHENTICATION_ERROR', `${venueId}: privateKey must be 32 bytes of hex`, { detail: { member: 'privateKey' } });
  return hex;
}

/** The EOA that signs, and the wallet that funds: `funderAddress` when orders are made by a smart wallet, else the EOA. */
function tradingAccount(ctx: LimitlessContext, key: Hex): { signer: Hex; maker: Hex } {
  const signer = privateKeyToAccount(key).address;
  return { signer, maker: getAddress(ctx.credentials?.funderAddress ?? signer) };
}
