import { randomUUID } from 'node:crypto';
import { PredgateError } from '@predgate/core';
import type { CreateOrderParams, OrderControl, TimeInForce } from '@predgate/core';
import Joi from 'joi';
import type { KalshiContext } from '../context.js';
import { invalidArgument } from '../errors.js';
import { outcomeOf, ticker } from '../ids.js';
import { fetchOrderBook } from '../reads/order-books.js';

/** pmxt's order controls this venue honours, each mapped onto the create-order body below. */
export const honouredOrderControls: OrderControl[] = ['timeInForce', 'postOnly', 'reduceOnly', 'expiry', 'denom', 'slippage_pct'];

/** The create-order request, unsigned: what buildOrder hands back and submitOrder signs and sends. */
export interface KalshiOrderRequest {
  method: 'POST';
  path: '/portfolio/orders';
  body: KalshiOrderBody;
}

export interface KalshiOrderBody {
  ticker: string;
  /** Kalshi's idempotency key: a retried submission cannot place a second order. */
  client_order_id: string;
  side: 'yes' | 'no';
  action: 'buy' | 'sell';
  count_fp: string;
  yes_price_dollars?: string;
  no_price_dollars?: string;
  time_in_force: KalshiTimeInForce;
  post_only?: boolean;
  reduce_only?: boolean;
  /** Unix seconds. */
  expiration_ts?: number;
}

type KalshiTimeInForce = 'good_till_canceled' | 'immediate_or_cancel' | 'fill_or_kill';

/** Kalshi spells these three; a good-till-date order is good-till-canceled with an `expiration_ts`. */
const timesInForce: Record<TimeInForce, KalshiTimeInForce> = {
  GTC: 'good_till_canceled',
  GTD: 'good_till_canceled',
  IOC: 'immediate_or_cancel',
  FOK: 'fill_or_kill',
};

/** Kalshi prices sit on a one-cent grid inside (0, 1). */
const minPrice = 0.01;
const maxPrice = 0.99;

/**
 * The body of one order. The outcome picks the contract (`side`: `TICKER` is
 * YES, `TICKER-NO` is NO) and the unified side picks `action`: selling YES is
 * `side: yes, action: sell`, not a NO purchase. Limit orders rest until
 * cancelled unless told otherwise; market orders are immediate-or-cancel at
 * the worst price given, the one `slippage_pct` allows from the best price
 * in the book, or the edge of the price range.
 */
export async function orderRequest(ctx: KalshiContext, params: CreateOrderParams, method: string): Promise<KalshiOrderRequest> {
  const venue = ctx.origin.exchange;
  const market = ticker(params.marketId);
  const outcome = outcomeOf(params.outcomeId);
  if (outcome.ticker !== market) {
    throw invalidArgument(venue, method, 'params.outcomeId', `"outcomeId" ${params.outcomeId} is not an outcome of market ${market}`);
  }
  const timeInForce = timeInForceOf(venue, method, params);
  const price =
    params.slippage_pct === undefined ? (params.price ?? (params.side === 'buy' ? maxPrice : minPrice)) : await boundedPrice(ctx, params, params.slippage_pct);
  if (price <= 0 || price >= 1) {
    throw invalidArgument(venue, method, 'params.price', `"price" must lie strictly between 0 and 1 on ${venue} (got ${price})`);
  }
  return {
    method: 'POST',
    path: '/portfolio/orders',
    body: {
      ticker: market,
      client_order_id: randomUUID(),
      side: outcome.side,
      action: params.side,
      count_fp: countOf(venue, method, params, price),
      [`${outcome.side}_price_dollars`]: price.toFixed(4),
      time_in_force: timeInForce,
      ...(params.postOnly === undefined ? {} : { post_only: params.postOnly }),
      ...(params.reduceOnly === undefined ? {} : { reduce_only: params.reduceOnly }),
      ...(params.expiry === undefined ? {} : { expiration_ts: Math.floor(params.expiry.getTime() / 1_000) }),
    },
  };
}

function timeInForceOf(venue: string, method: string, params: CreateOrderParams): KalshiTimeInForce {
  const asked = params.timeInForce ?? (params.type === 'market' ? 'IOC' : 'GTC');
  if (params.type === 'market' && asked !== 'IOC' && asked !== 'FOK') {
    throw invalidArgument(venue, method, 'params.timeInForce', `a market order on ${venue} fills at once: "timeInForce" must be IOC or FOK (got ${asked})`);
  }
  if (asked === 'GTD' && params.expiry === undefined) {
    throw invalidArgument(venue, method, 'params.expiry', `a GTD order on ${venue} needs "expiry"`);
  }
  if (params.postOnly && (asked === 'IOC' || asked === 'FOK')) {
    throw invalidArgument(venue, method, 'params.postOnly', `a post-only order rests in the book: it cannot also be ${asked}`);
  }
  return timesInForce[asked];
}

/** Contracts, two decimals: `amount` itself, or with `denom: quote` the dollars to spend at the order's price, rounded down. */
function countOf(venue: string, method: string, params: CreateOrderParams, price: number): string {
  if (params.denom !== 'quote') return params.amount.toFixed(2);
  const count = Math.floor((params.amount / price) * 100) / 100;
  if (count <= 0) throw invalidArgument(venue, method, 'params.amount', `$${params.amount} buys no contract at ${price} on ${venue}`);
  return count.toFixed(2);
}

/**
 * A market order's worst price: `slippage_pct` percent beyond the best price
 * it would take (the best ask to buy, the best bid to sell), rounded to the
 * cent grid towards the best price so the bound is never exceeded; a worst
 * price the caller gave as well applies where it is tighter.
 */
async function boundedPrice(ctx: KalshiContext, params: CreateOrderParams, slippagePct: number): Promise<number> {
  const book = await fetchOrderBook(ctx, params.outcomeId);
  const best = (params.side === 'buy' ? book.asks : book.bids)[0]?.price;
  if (best === undefined) {
    throw new PredgateError(
      'NO_LIQUIDITY',
      `${params.outcomeId.slice(0, 60)} has no ${params.side === 'buy' ? 'asks' : 'bids'} to fill a market order against`,
      {
        exchange: ctx.origin.exchange,
        detail: { outcomeId: params.outcomeId, side: params.side },
      },
    );
  }
  const cents = params.side === 'buy' ? Math.floor(best * (100 + slippagePct) + 1e-9) : Math.ceil(best * (100 - slippagePct) - 1e-9);
  const bound = Math.min(maxPrice, Math.max(minPrice, cents / 100));
  if (params.price === undefined) return bound;
  return params.side === 'buy' ? Math.min(bound, params.price) : Math.max(bound, params.price);
}

const price = Joi.string().pattern(/^0\.\d{2,4}$/);
const requestSchema = Joi.object<KalshiOrderRequest, true>({
  method: Joi.string().valid('POST').required(),
  path: Joi.string().valid('/portfolio/orders').required(),
  body: Joi.object({
    ticker: Joi.string()
      .max(200)
      .pattern(/^[A-Z0-9._-]+$/)
      .required(),
    client_order_id: Joi.string().guid().required(),
    side: Joi.string().valid('yes', 'no').required(),
    action: Joi.string().valid('buy', 'sell').required(),
    count_fp: Joi.string()
      .pattern(/^\d{1,9}\.\d{2}$/)
      .required(),
    yes_price_dollars: price,
    no_price_dollars: price,
    time_in_force: Joi.string().valid('good_till_canceled', 'immediate_or_cancel', 'fill_or_kill').required(),
    post_only: Joi.boolean(),
    reduce_only: Joi.boolean(),
    expiration_ts: Joi.number().integer().min(1).max(1e11),
  })
    .xor('yes_price_dollars', 'no_price_dollars')
    .required(),
});

/**
 * A built order's request, checked before it is signed: only the fields
 * buildOrder writes, within their bounds, and for the market, contract and
 * direction its `params` name, so an altered request is refused, never sent.
 */
export function builtRequest(ctx: KalshiContext, raw: unknown, params: CreateOrderParams): KalshiOrderRequest {
  const venue = ctx.origin.exchange;
  const { error, value } = requestSchema.validate(raw, { presence: 'optional', abortEarly: true, convert: false });
  if (error) {
    const detail = error.details[0]!;
    throw invalidArgument(
      venue,
      'submitOrder',
      `built.raw.${detail.path.join('.')}`,
      `the built order's request is not one buildOrder makes on ${venue}: ${detail.message}`,
    );
  }
  const outcome = outcomeOf(params.outcomeId);
  if (value.body.ticker !== ticker(params.marketId) || value.body.side !== outcome.side || value.body.action !== params.side) {
    throw invalidArgument(venue, 'submitOrder', 'built.raw.body', `the built order's request does not match its params (market, outcome and side)`);
  }
  return value;
}
