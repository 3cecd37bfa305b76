import { bookToDepth, normalizeOrderBook, toNumber } from '@predgate/core';
import type { OrderBook, OrderLevel } from '@predgate/core';
import type { RawBookSides, RawLevel, RawOrderBookAnswer } from '../api/types.js';
import type { ContractSide } from '../ids.js';
import { complement, roundPrice } from './numbers.js';

/** A market's one book: the bids to buy YES and the bids to buy NO (Kalshi publishes bids only). */
export interface Ladders {
  yes: OrderLevel[];
  no: OrderLevel[];
}

/** The ladders of an order book answer, current (`orderbook_fp`, dollar strings) or legacy (`orderbook`, cents). */
export function laddersOf(answer: RawOrderBookAnswer): Ladders {
  return laddersFrom(answer.orderbook_fp ?? answer.orderbook);
}

export function laddersFrom(sides: RawBookSides | undefined): Ladders {
  return {
    yes: ladder(sides?.yes_dollars, sides?.yes),
    no: ladder(sides?.no_dollars, sides?.no),
  };
}

/**
 * The book of one side of the market. A NO bid at p is an offer to sell YES
 * at 1 − p, so each side's asks are the other side's bids mirrored.
 */
export function sideBook(ladders: Ladders, side: ContractSide, timestamp: number, ticker: string, depth?: number): OrderBook {
  const other = side === 'yes' ? ladders.no : ladders.yes;
  const book = normalizeOrderBook({
    bids: ladders[side],
    asks: other.map((level) => ({ price: complement(level.price), size: level.size })),
    timestamp,
    isNegRisk: false,
    sourceMetadata: { ticker, side },
  });
  return bookToDepth(book, depth);
}

function ladder(dollars: RawLevel[] | null | undefined, cents: RawLevel[] | null | undefined): OrderLevel[] {
  // The payload check has refused unreadable levels; normalizeOrderBook drops the empty ones.
  if (Array.isArray(dollars)) return dollars.map(([price, size]) => level(toNumber(price), size));
  if (Array.isArray(cents)) return cents.map(([price, size]) => level(centsToDollars(toNumber(price)), size));
  return [];
}

function level(price: number | undefined, size: string | number): OrderLevel {
  return { price: price ?? Number.NaN, size: toNumber(size) ?? Number.NaN };
}

function centsToDollars(cents: number | undefined): number | undefined {
  return cents === undefined ? undefined : roundPrice(cents / 100);
}
