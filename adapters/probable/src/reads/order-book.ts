import { PredgateError, bookToDepth, invalidArgument, normalizeOrderBook, toEpochMs, toNumber, unlessMissing } from '@predgate/core';
import type { OrderBook, OrderBookParams } from '@predgate/core';
import type { ProbableContext } from '../context.js';
import { outcomeTokens } from '../normalize/markets.js';

/** One book per outcome token (a binary market's two books are not derived from each other). */
export async function fetchOrderBook(ctx: ProbableContext, id: string, limit?: number, params: OrderBookParams = {}): Promise<OrderBook> {
  const wanted = params.outcome ?? params.side;
  let tokenId = wanted !== undefined && /^\d{20,}$/.test(wanted) ? wanted : /^\d{20,}$/.test(id) ? id : undefined;
  if (!tokenId && (wanted === 'yes' || wanted === 'no') && /^\d{1,12}$/.test(id)) {
    // A market id with a side: its first outcome is yes, its second no (labels may be team codes).
    const raw = await unlessMissing(ctx.api.market(id));
    tokenId = raw ? outcomeTokens(raw)[wanted === 'yes' ? 0 : 1]?.tokenId : undefined;
    if (!tokenId) throw new PredgateError('MARKET_NOT_FOUND', `Market not found: ${id}`, { detail: { marketId: id } });
  }
  if (!tokenId)
    throw invalidArgument('params.outcome', `${id.slice(0, 40)} is not an outcome token id: give one, or a market id with params.outcome yes or no`);
  const raw = await ctx.api.book(tokenId);
  const level = (entry: { price: string; size: string }) => ({ price: toNumber(entry.price)!, size: toNumber(entry.size)! });
  return bookToDepth(
    normalizeOrderBook({ bids: raw.bids.map(level), asks: raw.asks.map(level), timestamp: toEpochMs(raw.timestamp) ?? ctx.clock.now() }),
    limit ?? params.limit,
  );
}
