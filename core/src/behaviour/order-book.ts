import type { OrderBook, OrderLevel } from '../model/index.js';

export interface RawBook extends Omit<OrderBook, 'datetime'> {
  datetime?: string;
}

/**
 * A book in the unified form whatever order the venue sent its levels in:
 * bids best (highest) first, asks best (lowest) first, empty levels dropped,
 * `datetime` derived from `timestamp`.
 */
export function normalizeOrderBook(book: RawBook): OrderBook {
  const usable = (level: OrderLevel) => Number.isFinite(level.price) && Number.isFinite(level.size) && level.size > 0;
  return {
    ...book,
    bids: book.bids.filter(usable).sort((a, b) => b.price - a.price),
    asks: book.asks.filter(usable).sort((a, b) => a.price - b.price),
    datetime: new Date(book.timestamp).toISOString(),
  };
}

/** The book cut to its best `depth` levels a side; whole without a depth. */
export function bookToDepth(book: OrderBook, depth: number | undefined): OrderBook {
  return depth === undefined ? book : { ...book, bids: book.bids.slice(0, depth), asks: book.asks.slice(0, depth) };
}
