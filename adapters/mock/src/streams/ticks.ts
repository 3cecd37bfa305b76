import { createFeed, feedError } from '@predgate/core';
import type { Clock, Feed, OrderBook, OrderLevel, Trade } from '@predgate/core';
import { createRandom, round } from '../simulation/random.js';

/**
 * Simulated live data: a book that moves a little at every tick (sizes drift,
 * a level comes and goes) and a print at every tick, so demos and tests see a
 * stream without a venue. The first payload is the outcome's current book.
 */
export function tickingBook(symbol: string, initial: () => OrderBook, clock: Clock, tickMs: number): Feed<OrderBook> {
  return createFeed((emit) => {
    let book: OrderBook;
    try {
      book = initial();
    } catch (error) {
      queueMicrotask(() => emit.error(feedError(error, 'mock')));
      return () => undefined;
    }
    const random = createRandom(`ticks:${symbol}`);
    const stamp = (next: OrderBook): OrderBook => {
      const timestamp = clock.now();
      return { ...next, timestamp, datetime: new Date(timestamp).toISOString() };
    };
    queueMicrotask(() => emit.data(stamp(book)));
    const timer = setInterval(() => {
      const side = random.chance(0.5) ? 'bids' : 'asks';
      const levels: OrderLevel[] = book[side].map((level) => ({ ...level }));
      if (levels.length > 0) {
        const at = random.int(0, levels.length - 1);
        levels[at] = { ...levels[at]!, size: round(Math.max(1, levels[at]!.size * (0.8 + random.next() * 0.4)), 2) };
      }
      book = stamp({ ...book, [side]: levels });
      emit.data(book);
    }, tickMs);
    timer.unref();
    return () => clearInterval(timer);
  });
}

/** One simulated print per tick around the outcome's price. */
export function tickingTrades(symbol: string, price: () => number, clock: Clock, tickMs: number): Feed<Trade[]> {
  return createFeed((emit) => {
    let around: number;
    try {
      around = price();
    } catch (error) {
      queueMicrotask(() => emit.error(feedError(error, 'mock')));
      return () => undefined;
    }
    const random = createRandom(`prints:${symbol}`);
    let sequence = 0;
    const timer = setInterval(() => {
      sequence += 1;
      const timestamp = clock.now();
      around = Math.min(0.99, Math.max(0.01, around + (random.next() - 0.5) * 0.01));
      emit.data([
        {
          id: `${symbol}-live-${timestamp}-${sequence}`,
          timestamp,
          price: round(around, 3),
          amount: round(random.logUniform(1, 500), 2),
          side: random.chance(0.5) ? 'buy' : 'sell',
          outcomeId: symbol,
        },
      ]);
    }, tickMs);
    timer.unref();
    return () => clearInterval(timer);
  });
}
