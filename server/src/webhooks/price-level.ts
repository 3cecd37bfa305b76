import type { OrderBook } from '@predgate/core';
import type { PriceFilter } from './model.js';

/** Whether a price moved across the filter's level in its direction: from below to at-or-above, or from above to at-or-below. */
export function crossed(filter: Pick<PriceFilter, 'level' | 'direction'>, before: number, after: number): boolean {
  const up = before < filter.level && after >= filter.level;
  const down = before > filter.level && after <= filter.level;
  return filter.direction === 'above' ? up : filter.direction === 'below' ? down : up || down;
}

/** A book's price: the midpoint of the best bid and ask, or the one side there is. */
export function bookPrice(book: OrderBook): number | undefined {
  const bid = book.bids[0]?.price;
  const ask = book.asks[0]?.price;
  if (bid !== undefined && ask !== undefined) return (bid + ask) / 2;
  return bid ?? ask;
}
