import type { OrderBook, OrderLevel } from '../model/index.js';

export interface RawBook extends Omit<OrderBook, 'datetime'> {
  datetime?: string;
}

/** Most levels a side a unified book carries; deeper venue books are cut, never sent whole. */
export const maxBookDepth = 1000;

/**
 * A book in the unified form whatever the venue sent: bids best (highest)
 * first, asks best (lowest) first, empty and unreadable levels dropped,
 * levels at the same price merged (venues and replays can repeat one), each
 * side cut to `maxBookDepth`, `datetime` derived from `timestamp`.
 */
export function normalizeOrderBook(book: RawBook): OrderBook {
  return {
    ...book,
    bids: side(book.bids)
      .sort((a, b) => b.price - a.price)
      .slice(0, maxBookDepth),
    asks: side(book.asks)
      .sort((a, b) => a.price - b.price)
      .slice(0, maxBookDepth),
    datetime: new Date(book.timestamp).toISOString(),
  };
}

function side(levels: readonly OrderLevel[]): OrderLevel[] {
  const byPrice = new Map<number, OrderLevel>();
  for (const level of levels) {
    if (!(Number.isFinite(level.price) && Number.isFinite(level.size) && level.size > 0)) continue;
    const same = byPrice.get(level.price);
    if (!same) byPrice.set(level.price, { ...level });
    else {
      same.size += level.size;
      if (same.orderCount !== undefined || level.orderCount !== undefined) same.orderCount = (same.orderCount ?? 0) + (level.orderCount ?? 0);
    }
  }
  return [...byPrice.values()];
}

/** The book cut to its best `depth` levels a side; whole without a depth. */
export function bookToDepth(book: OrderBook, depth: number | undefined): OrderBook {
  return depth === undefined ? book : { ...book, bids: book.bids.slice(0, depth), asks: book.asks.slice(0, depth) };
}
