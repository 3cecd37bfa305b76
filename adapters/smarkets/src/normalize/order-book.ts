import { normalizeOrderBook } from '@predgate/core';
import type { OrderBook } from '@predgate/core';
import type { RawQuoteLevel } from '../api/schemas.js';
import { fromBasisPoints, fromQuantity } from './units.js';

/** One contract's book: its bids, and its offers as asks; quantities are the pot in currency. */
export function normalizeBook(levels: { bids: RawQuoteLevel[]; offers: RawQuoteLevel[] }, now: number): OrderBook {
  const level = (entry: RawQuoteLevel) => ({ price: fromBasisPoints(entry.price), size: fromQuantity(entry.quantity) });
  return normalizeOrderBook({ bids: levels.bids.map(level), asks: levels.offers.map(level), timestamp: now });
}
