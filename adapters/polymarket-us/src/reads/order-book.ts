import { bookToDepth, invalidArgument } from '@predgate/core';
import type { OrderBook, OrderBookParams } from '@predgate/core';
import type { PolymarketUsContext } from '../context.js';
import { partsOfOutcomeId } from '../ids.js';
import { normalizeBook } from '../normalize/markets.js';

/** One book per market, quoted on the long side; the short outcome's book is its mirror (pmxt handed out the long book for both). */
export async function fetchOrderBook(ctx: PolymarketUsContext, id: string, limit?: number, params: OrderBookParams = {}): Promise<OrderBook> {
  const wanted = params.outcome ?? params.side;
  const parts =
    partsOfOutcomeId(wanted ?? '') ??
    partsOfOutcomeId(id) ??
    (wanted === 'yes' || wanted === 'no' ? { slug: id, side: wanted === 'yes' ? ('long' as const) : ('short' as const) } : undefined);
  if (!parts)
    throw invalidArgument(
      'params.outcome',
      `${id.slice(0, 100)} is a market slug: choose its book with params.outcome (yes, no or an outcome id <slug>:long|short)`,
    );
  const { marketData } = await ctx.api.book(parts.slug);
  return bookToDepth(normalizeBook(marketData, parts.side, ctx.clock.now()), limit ?? params.limit);
}
