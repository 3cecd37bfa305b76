import type { OrderBook, OrderLevel } from '../model/index.js';
import { normalizeOrderBook } from '../behaviour/order-book.js';
import type { RawBook } from '../behaviour/order-book.js';
import { roundTo } from './values.js';

/** Most levels a side a unified book carries; deeper venue books are cut, never sent whole. */
export const maxBookDepth = 1000;

/**
 * A venue book in the unified form: levels at the same price merged (venues
 * and replays can repeat one), sorted best first, empty levels dropped, each
 * side cut to `maxBookDepth`.
 */
export function buildOrderBook(book: RawBook): OrderBook {
  const normalized = normalizeOrderBook({ ...book, bids: mergeLevels(book.bids), asks: mergeLevels(book.asks) });
  return { ...normalized, bids: normalized.bids.slice(0, maxBookDepth), asks: normalized.asks.slice(0, maxBookDepth) };
}

/**
 * The book of the other side of a binary contract, from a book quoted on one
 * side: a bid for YES at p is an ask for NO at 1 − p, and the other way round.
 */
export function invertBinaryBook(book: OrderBook): OrderBook {
  const flip = (level: OrderLevel): OrderLevel => ({ price: roundTo(1 - level.price, 10), size: level.size });
  const inverted: OrderBook = {
    ...book,
    bids: book.asks.map(flip),
    asks: book.bids.map(flip),
  };
  if (book.lastTradePrice !== undefined) inverted.lastTradePrice = roundTo(1 - book.lastTradePrice, 10);
  return normalizeOrderBook(inverted);
}

function mergeLevels(levels: readonly OrderLevel[]): OrderLevel[] {
  const byPrice = new Map<number, number>();
  for (const level of levels) byPrice.set(level.price, (byPrice.get(level.price) ?? 0) + level.size);
  return [...byPrice].map(([price, size]) => ({ price, size }));
}
