import { PredgateError } from '../errors.js';
import type { ExecutionPriceResult, OrderBook, OrderLevel } from '../model/index.js';

type Book = Pick<OrderBook, 'bids' | 'asks'>;

/** What filling `amount` shares at market would cost: a buy walks the asks upward, a sell the bids downward. */
export function getExecutionPriceDetailed(book: Book, side: 'buy' | 'sell', amount: number): ExecutionPriceResult {
  if (!(amount > 0)) throw new PredgateError('VALIDATION_ERROR', `amount must be greater than 0, got ${amount}`);
  // The book's own order is not trusted: levels are sorted best first here.
  const levels = (side === 'buy' ? book.asks : book.bids)
    .filter((level) => level.size > 0)
    .sort(side === 'buy' ? (x: OrderLevel, y: OrderLevel) => x.price - y.price : (x, y) => y.price - x.price);
  let remaining = amount;
  let cost = 0;
  for (const level of levels) {
    if (remaining <= 0) break;
    const take = Math.min(remaining, level.size);
    cost += take * level.price;
    remaining -= take;
  }
  const filledAmount = amount - Math.max(remaining, 0);
  return {
    price: filledAmount > 0 ? cost / filledAmount : 0,
    filledAmount,
    fullyFilled: remaining <= 1e-9,
  };
}

/** The average price when the book can fill all of `amount`, else 0. */
export function getExecutionPrice(book: Book, side: 'buy' | 'sell', amount: number): number {
  const result = getExecutionPriceDetailed(book, side, amount);
  return result.fullyFilled ? result.price : 0;
}
