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
