import { bookToDepth, fromBaseUnits, normalizeOrderBook, notSupported } from '@predgate/core';
import type { OrderBookParams } from '@predgate/core';
import type { MyriadContext } from '../context.js';
import { marketKey } from '../ids.js';
import { outcomeOf } from './outcome.js';

export async function fetchOrderBook(ctx: MyriadContext, id: string, limit?: number, params: OrderBookParams = {}) {
  const { market, outcome } = await outcomeOf(ctx, id, params.outcome);
  if (market.tradingModel !== 'ob') {
    throw notSupported('fetchOrderBook', `market ${marketKey(market)} is an AMM market: it has no order book, its outcome prices are the pool's`);
  }
  const book = await ctx.api.orderbook(Number(market.id), Number(market.networkId), Number(outcome.id));
  const level = ([price, size]: [string, string]) => ({ price: fromBaseUnits(price, 18)!, size: fromBaseUnits(size, 18)! });
  const now = ctx.clock.now();
  return bookToDepth(normalizeOrderBook({ bids: book.bids.map(level), asks: book.asks.map(level), timestamp: now }), limit);
}
