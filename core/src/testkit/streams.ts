import type { PredgateError } from '../errors.js';
import type { OrderBook, Trade } from '../model/index.js';
import type { Feed } from '../streaming/feed.js';

/** What a feed has delivered so far, and the listener that records it. */
export interface CollectedFeed<T> {
  data: T[];
  errors: PredgateError[];
  listener: { data(payload: T): void; error(error: PredgateError): void };
}

export function collectFeed<T>(): CollectedFeed<T> {
  const data: T[] = [];
  const errors: PredgateError[] = [];
  return { data, errors, listener: { data: (payload) => data.push(payload), error: (error) => errors.push(error) } };
}

/** A venue stream with book and trade watches of an outcome. */
export interface BookAndTradeStream {
  watchOrderBook(outcomeId: string): Feed<OrderBook>;
  watchTrades(outcomeId: string): Feed<Trade[]>;
}

/** Watches of an outcome's book and trades, started, with what each delivers collected. */
export function watchBookAndTrades(stream: BookAndTradeStream, outcomeId: string) {
  const books = collectFeed<OrderBook>();
  const prints = collectFeed<Trade[]>();
  const book = stream.watchOrderBook(outcomeId);
  const trades = stream.watchTrades(outcomeId);
  book.start(books.listener);
  trades.start(prints.listener);
  return {
    books,
    prints,
    async stop(): Promise<void> {
      await Promise.all([book.stop(), trades.stop()]);
    },
  };
}
