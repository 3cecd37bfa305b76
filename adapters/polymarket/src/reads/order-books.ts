import { PredgateError, bookToDepth } from '@predgate/core';
import type { OrderBook, OrderBookParams } from '@predgate/core';
import type { PolymarketContext } from '../context.js';
import { isTokenId } from '../ids.js';
import { normalizeBook } from '../normalize/market-data.js';
import { normalizeMarket } from '../normalize/markets.js';
import { venueId } from '../venue.js';

/** `POST /books` is limited by payload size (about 500 ids); smaller batches stay well inside it. */
const booksPerRequest = 200;

/**
 * The live book of one outcome token. With `outcome` (`yes`, `no` or a token
 * id) the first argument may be a market id, a condition id or the slug of a
 * one-market event (short-interval crypto markets).
 */
export async function fetchOrderBook(ctx: PolymarketContext, id: string, limit?: number, params: OrderBookParams = {}): Promise<OrderBook> {
  const { tokenId, negRisk } = await resolveToken(ctx, id, params);
  const book = normalizeBook(await ctx.clob.book(tokenId), ctx.clock.now(), negRisk);
  return bookToDepth(book, limit ?? params.limit);
}

/** Books of several tokens, keyed by token id; tokens the venue has no book for are left out, as the venue does. */
export async function fetchOrderBooks(ctx: PolymarketContext, outcomeIds: string[]): Promise<Record<string, OrderBook>> {
  const wanted = new Set(outcomeIds);
  const books: Record<string, OrderBook> = {};
  for (let index = 0; index < outcomeIds.length; index += booksPerRequest) {
    const answer = await ctx.clob.books(outcomeIds.slice(index, index + booksPerRequest));
    for (const raw of answer) {
      if (raw.asset_id && wanted.has(raw.asset_id)) books[raw.asset_id] = normalizeBook(raw, ctx.clock.now());
    }
  }
  return books;
}

async function resolveToken(ctx: PolymarketContext, id: string, params: OrderBookParams): Promise<{ tokenId: string; negRisk?: boolean }> {
  const wanted = (params.outcome ?? params.side)?.toLowerCase();
  if (wanted !== undefined && isTokenId(wanted)) return { tokenId: wanted };
  // One book per token: a side names nothing more once the token is known.
  if (isTokenId(id)) return { tokenId: id };
  if (wanted === undefined) {
    throw new PredgateError('VALIDATION_ERROR', `${id} is not an outcome token id: choose its book with params.outcome (yes, no or a token id)`, {
      exchange: venueId,
      detail: { argument: 'params', path: 'params.outcome' },
    });
  }
  const { market, event } = await ctx.lookup.require(id);
  const unified = normalizeMarket(market, event);
  // Markets never listed on the CLOB (books disabled, no token ids) have no book to read, whichever side is asked.
  if (unified.outcomes.length === 0) {
    throw new PredgateError('NOT_FOUND', `Market ${id} has no order book: it was never listed on the CLOB (no outcome token ids)`, { exchange: venueId });
  }
  const outcome = wanted === 'yes' || wanted === 'up' ? unified.yes : wanted === 'no' || wanted === 'down' ? unified.no : undefined;
  if (!outcome) {
    throw new PredgateError('VALIDATION_ERROR', `Market ${id} has no "${wanted}" outcome: name it yes, no or by token id`, {
      exchange: venueId,
      detail: { argument: 'params', path: 'params.outcome' },
    });
  }
  return { tokenId: outcome.outcomeId, ...(market.negRisk === undefined ? {} : { negRisk: market.negRisk }) };
}
