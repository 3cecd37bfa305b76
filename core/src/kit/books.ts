import type { OrderBook, OrderLevel } from '../model/index.js';
import { normalizeOrderBook } from '../behaviour/order-book.js';
import { roundTo } from './values.js';

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

/** The index of `price` in ascending `prices`, or where it would go (a binary search): how kept book sides find a level. */
export function priceIndex(prices: readonly number[], price: number): number {
  let low = 0;
  let high = prices.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (prices[middle]! < price) low = middle + 1;
    else high = middle;
  }
  return low;
}
