import { notSupported } from '@predgate/core';
import type { OrderBook, OrderBookParams } from '@predgate/core';
import type { TemplateContext } from '../context.js';
import { toOrderBook } from '../normalize/order-book.js';

export async function fetchOrderBook(ctx: TemplateContext, id: string, limit?: number, params?: OrderBookParams): Promise<OrderBook> {
  // With `outcome` naming an outcome, the first argument is its market's id: the book is the outcome's.
  if (params?.outcome === 'yes' || params?.outcome === 'no') {
    throw notSupported('fetchOrderBook', 'name the outcome by its id: this venue keeps one book per outcome and has no market lookup');
  }
  const book = toOrderBook(await ctx.api.book(params?.outcome ?? id));
  return limit === undefined ? book : { ...book, bids: book.bids.slice(0, limit), asks: book.asks.slice(0, limit) };
}
