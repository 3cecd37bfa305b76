import { normalizeOrderBook, toNumber } from '@predgate/core';
import type { OrderBook } from '@predgate/core';
import type { RawBook } from '../api/schemas.js';

export function toOrderBook(raw: RawBook): OrderBook {
  const level = ([price, size]: [string, string]) => ({ price: toNumber(price)!, size: toNumber(size)! });
  return normalizeOrderBook({ bids: raw.bids.map(level), asks: raw.asks.map(level), timestamp: raw.ts });
}
