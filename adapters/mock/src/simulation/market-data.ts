import { normalizeOrderBook } from '@predgate/core';
import type { Market, OrderBook, OrderLevel, Outcome, PriceCandle, Trade } from '@predgate/core';
import { priceOf } from './catalog.js';
import { createRandom, round } from './random.js';

const minute = 60_000;

/**
 * The live book of one outcome: 5 to 50 levels a side, the best bid below and
 * the best ask above the outcome's price, at the market's tick. The same
 * outcome always gets the same levels; only the timestamp moves.
 */
export function simulateBook(outcome: Outcome, market: Market, now: number): OrderBook {
  const random = createRandom(`book:${outcome.outcomeId}`);
  const tick = market.tickSize ?? 0.01;
  const ticks = (price: number) => Math.round(price / tick);
  const center = ticks(priceOf(outcome));
  const halfSpread = random.int(1, 3);
  const bestBid = Math.max(1, center - halfSpread);
  const bestAsk = Math.min(ticks(1) - 1, Math.max(bestBid + 1, center + halfSpread));
  const side = (from: number, direction: -1 | 1, floor: number, ceiling: number): OrderLevel[] => {
    const levels: OrderLevel[] = [];
    const wanted = random.int(5, 50);
    for (let at = from; at >= floor && at <= ceiling && levels.length < wanted; at += direction * random.int(1, 2)) {
      levels.push({ price: round(at * tick, 4), size: round(random.logUniform(5, 5_000), 2), orderCount: random.int(1, 25) });
    }
    return levels;
  };
  return normalizeOrderBook({
    bids: side(bestBid, -1, 1, ticks(1) - 1),
    asks: side(bestAsk, 1, 1, ticks(1) - 1),
    timestamp: now,
    lastTradePrice: outcome.price,
    isNegRisk: false,
  });
}

/** Prints of the last hours, newest first, wandering around and ending at the outcome's price. */
export function simulateTrades(outcome: Outcome, now: number, count: number): Trade[] {
  const end = Math.floor(now / minute) * minute;
  const random = createRandom(`trades:${outcome.outcomeId}:${end}`);
  const trades: Trade[] = [];
  let price = priceOf(outcome);
  let time = end;
  for (let index = 0; index < count; index += 1) {
    trades.push({
      id: `${outcome.outcomeId}-t${time}-${index}`,
      timestamp: time,
      price: round(clamp(price), 3),
      amount: round(random.logUniform(1, 2_000), 2),
      side: random.chance(0.5) ? 'buy' : 'sell',
      outcomeId: outcome.outcomeId,
    });
    // Walking back in time: earlier trades drift away from today's price.
    price = clamp(price + random.float(-0.01, 0.01));
    time -= random.int(5, 600) * 1_000;
  }
  return trades;
}

/**
 * Candles aligned to the resolution, oldest first, whose last close is the
 * outcome's price. Open, high, low and close are consistent with each other.
 */
export function simulateCandles(outcome: Outcome, stepMs: number, from: number, to: number, limit: number): PriceCandle[] {
  const last = Math.floor(to / stepMs) * stepMs;
  const first = Math.max(Math.ceil(from / stepMs) * stepMs, last - (limit - 1) * stepMs);
  const random = createRandom(`candles:${outcome.outcomeId}:${stepMs}:${last}`);
  const candles: PriceCandle[] = [];
  let close = priceOf(outcome);
  for (let start = last; start >= first; start -= stepMs) {
    const open = clamp(close + random.float(-0.02, 0.02));
    const high = Math.min(1, Math.max(open, close) + random.float(0, 0.01));
    const low = Math.max(0, Math.min(open, close) - random.float(0, 0.01));
    candles.push({
      timestamp: start,
      open: round(open, 3),
      high: round(high, 3),
      low: round(low, 3),
      close: round(close, 3),
      volume: round(random.logUniform(10, 50_000), 2),
    });
    close = open;
  }
  return candles.reverse();
}

function clamp(price: number): number {
  return Math.min(0.99, Math.max(0.01, price));
}
