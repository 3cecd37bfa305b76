import type { OrderBook, OrderBookParams } from '@predgate/core';
import { segment } from '../api/client.js';
import type { RawBookSides, RawOrderBookAnswer } from '../api/types.js';
import type { KalshiContext } from '../context.js';
import { invalidArgument } from '../errors.js';
import { isContractSide, outcomeOf, parseOutcomeId } from '../ids.js';
import type { ContractSide } from '../ids.js';
import { laddersFrom, laddersOf, sideBook } from '../normalize/order-book.js';
import { checked } from '../api/schemas.js';

/** Kalshi's `depth` goes to 100 levels; deeper requests read every level and are cut here. */
const maxVenueDepth = 100;
/** Tickers per batch request. */
const batchSize = 100;

/**
 * fetchOrderBook. Kalshi keeps one book per market; the YES and NO books are
 * two views of it. The side comes from the outcome id (`TICKER-NO` is the NO
 * outcome), `params.outcome` (`yes`, `no` or an outcome id of the market) or
 * `params.side`. A bare ticker with none of these is what the id convention
 * says it is: the market's YES outcome, so every outcome id the adapter hands
 * out is enough on its own.
 */
export async function fetchOrderBook(ctx: KalshiContext, outcomeId: string, limit?: number, params: OrderBookParams = {}): Promise<OrderBook> {
  const { ticker, side } = bookSideOf(outcomeId, params, ctx.origin.exchange);
  const depth = limit ?? params.limit;
  const answer = checked<RawOrderBookAnswer>(
    'GET /markets/{ticker}/orderbook',
    ctx.origin.exchange,
    await ctx.api.getSignedIfPossible<unknown>(`/markets/${segment(ticker)}/orderbook`, depth !== undefined && depth <= maxVenueDepth ? { depth } : undefined),
  );
  return sideBook(laddersOf(answer), side, Math.floor(ctx.clock.now()), ticker, depth);
}

/**
 * fetchOrderBooks: the books of several outcomes from the batch endpoint,
 * keyed by the ids as given. Here every id is an outcome id, so a bare ticker
 * is the YES outcome. A market the venue does not answer for is left out.
 */
export async function fetchOrderBooks(ctx: KalshiContext, outcomeIds: string[]): Promise<Record<string, OrderBook>> {
  const wanted = outcomeIds.map((id) => ({ id, ...outcomeOf(id) }));
  const tickers = [...new Set(wanted.map((entry) => entry.ticker))];
  const ladders = new Map<string, RawBookSides | undefined>();
  for (let start = 0; start < tickers.length; start += batchSize) {
    const answer = checked<{ orderbooks?: Array<{ ticker: string } & RawOrderBookAnswer> | null }>(
      'GET /markets/orderbooks',
      ctx.origin.exchange,
      await ctx.api.getSignedIfPossible<unknown>('/markets/orderbooks', { tickers: tickers.slice(start, start + batchSize).join(',') }),
    );
    for (const book of answer.orderbooks ?? []) ladders.set(book.ticker, book.orderbook_fp ?? book.orderbook);
  }
  const timestamp = Math.floor(ctx.clock.now());
  const books: Record<string, OrderBook> = {};
  for (const { id, ticker, side } of wanted) {
    if (ladders.has(ticker)) books[id] = sideBook(laddersFrom(ladders.get(ticker)), side, timestamp, ticker);
  }
  return books;
}

/** The market and side a book request names; every source that names a side must agree. */
function bookSideOf(outcomeId: string, params: OrderBookParams, venue: string): { ticker: string; side: ContractSide } {
  const { ticker, side: fromId } = parseOutcomeId(outcomeId);
  const claims: Array<{ side: ContractSide; from: string }> = [];
  if (fromId) claims.push({ side: fromId, from: 'outcomeId' });
  if (params.outcome !== undefined) {
    const outcome = params.outcome.toLowerCase();
    if (isContractSide(outcome)) {
      claims.push({ side: outcome, from: 'params.outcome' });
    } else {
      const named = outcomeOf(params.outcome);
      if (named.ticker !== ticker) {
        throw invalidArgument(venue, 'fetchOrderBook', 'params.outcome', `"params.outcome" names an outcome of ${named.ticker}, not of ${ticker}`);
      }
      claims.push({ side: named.side, from: 'params.outcome' });
    }
  }
  if (params.side) claims.push({ side: params.side, from: 'params.side' });
  const [first] = claims;
  if (first === undefined) return { ticker, side: 'yes' };
  const conflict = claims.find((claim) => claim.side !== first.side);
  if (conflict) {
    throw invalidArgument(
      venue,
      'fetchOrderBook',
      conflict.from,
      `"${conflict.from}" asks for the ${conflict.side} book, but "${first.from}" names the ${first.side} book`,
    );
  }
  return { ticker, side: first.side };
}
