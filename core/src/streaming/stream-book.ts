import { normalizeOrderBook } from '../behaviour/order-book.js';
import type { OrderBook, OrderLevel } from '../model/index.js';
import { invertBinaryBook, priceIndex } from '../kit/books.js';
import { toNumber } from '../kit/values.js';

/**
 * A level as a stream keeps it: numbers, or the venue's decimal text kept as
 * sent (the archive writes it unchanged, so nothing is rounded on the way).
 */
export interface KeptLevel {
  price: number | string;
  size: number | string;
}

/**
 * One side of a book kept from a venue's snapshots and deltas: one level per
 * price, compared by value ("0.50" and "0.5" are one level, the latest text
 * wins), a level set to size 0 removed. A level whose price or size is not a
 * finite number (or a size below 0) is refused and changes nothing. Levels are
 * kept in price order as they change (a binary search, one splice), so a side
 * is read out by copying, never by sorting: the archive reads a thousand books
 * of one token in a range.
 */
export class PriceLevels<Level extends KeptLevel = OrderLevel> {
  /** Prices ascending, and the level at each index. */
  private readonly prices: number[] = [];
  private readonly levels: Level[] = [];

  /** How many prices have a level. */
  get count(): number {
    return this.prices.length;
  }

  /** Sets the level at its price (size 0 removes it); false, with nothing changed, when the level is unreadable. */
  set(level: Level): boolean {
    const price = Number(level.price);
    const size = Number(level.size);
    if (!Number.isFinite(price) || !Number.isFinite(size) || size < 0) return false;
    const index = priceIndex(this.prices, price);
    const present = this.prices[index] === price;
    if (size === 0) {
      if (present) {
        this.prices.splice(index, 1);
        this.levels.splice(index, 1);
      }
    } else if (present) {
      this.levels[index] = level;
    } else {
      this.prices.splice(index, 0, price);
      this.levels.splice(index, 0, level);
    }
    return true;
  }

  /** The size resting at `price`, 0 when there is no level. */
  sizeAt(price: number): number {
    const index = priceIndex(this.prices, price);
    return this.prices[index] === price ? Number(this.levels[index]!.size) : 0;
  }

  clear(): void {
    this.prices.length = 0;
    this.levels.length = 0;
  }

  /** Every level in price order, a copy: `descending` is best first for bids, `ascending` best first for asks. */
  sorted(order: 'ascending' | 'descending'): Level[] {
    return order === 'ascending' ? this.levels.slice() : this.levels.slice().reverse();
  }
}

/**
 * One side of a book as a venue streams it, row by row: `cells` gives a row's
 * price and size (undefined when the row is not one). A price outside 0..1, a
 * size below 0 or an unreadable row makes the whole side unreadable
 * (undefined), never a partial book; a size of 0 is no level.
 */
export function streamedLevels(rows: unknown, cells: (row: unknown) => readonly [price: unknown, size: unknown] | undefined): OrderLevel[] | undefined {
  if (!Array.isArray(rows)) return undefined;
  const levels: OrderLevel[] = [];
  for (const row of rows as unknown[]) {
    const [price, size] = (cells(row) ?? []).map((cell) => toNumber(cell));
    if (price === undefined || size === undefined || !(price >= 0 && price <= 1) || !(size >= 0)) return undefined;
    if (size > 0) levels.push({ price, size });
  }
  return levels;
}

/** A sequence number that did not follow the one before: messages between were missed. */
export interface SequenceGap {
  expected: number;
  received: number;
}

/**
 * The sequence numbers of one run of numbered messages (a book's deltas, or a
 * subscription's messages): the first number seen starts the run, each next
 * one must be one more. Venues that number their messages resync on a gap.
 */
export class MessageSequence {
  private last: number | undefined;

  /** Takes `received`: a gap when it does not follow the last one taken (the run then starts over), else undefined. */
  take(received: number): SequenceGap | undefined {
    const expected = this.last === undefined ? received : this.last + 1;
    if (received !== expected) {
      this.last = undefined;
      return { expected, received };
    }
    this.last = received;
    return undefined;
  }

  /** Forgets the run: the next number taken starts a new one. */
  reset(): void {
    this.last = undefined;
  }
}

export type BookSide = 'bids' | 'asks';

/**
 * One book kept from a venue's full snapshots and the deltas after them. It is
 * known from a snapshot on: a delta before one (or after `forget`, a dropped
 * connection) describes a book we do not have and is not applied. Where the
 * venue numbers its messages, a delta out of sequence makes the book unknown
 * and is told to `onGap`, for the stream to ask for a fresh snapshot.
 */
export class StreamBook<Level extends KeptLevel = OrderLevel> {
  readonly bids = new PriceLevels<Level>();
  readonly asks = new PriceLevels<Level>();
  private synced = false;
  private readonly sequence = new MessageSequence();

  constructor(private readonly options: { onGap?(gap: SequenceGap): void } = {}) {}

  /** A snapshot was applied, and nothing since says the book may have moved without us. */
  get known(): boolean {
    return this.synced;
  }

  /**
   * Replaces both sides with a snapshot's levels (an empty side is an empty
   * side); `sequence`, where the venue numbers messages, starts the count the
   * deltas after it follow. False when a level was unreadable: the book is then
   * unknown until the next snapshot, rather than a wrong one.
   */
  snapshot(bids: Iterable<Level>, asks: Iterable<Level>, sequence?: number): boolean {
    this.bids.clear();
    this.asks.clear();
    this.sequence.reset();
    let readable = true;
    for (const level of bids) readable = this.bids.set(level) && readable;
    for (const level of asks) readable = this.asks.set(level) && readable;
    if (!readable) {
      this.forget();
      return false;
    }
    if (sequence !== undefined) this.sequence.take(sequence);
    this.synced = true;
    return true;
  }

  /**
   * Sets one level from a delta (size 0 removes it). False when it was not
   * applied: the book is unknown, the delta is out of sequence (the book is
   * then unknown and `onGap` told), or the level is unreadable.
   */
  delta(side: BookSide, level: Level, sequence?: number): boolean {
    if (!this.synced) return false;
    if (sequence !== undefined) {
      const gap = this.sequence.take(sequence);
      if (gap) {
        this.forget();
        this.options.onGap?.(gap);
        return false;
      }
    }
    return this[side].set(level);
  }

  /** The book may have changed without us (the connection dropped): unknown, and empty, until the next snapshot. */
  forget(): void {
    this.synced = false;
    this.bids.clear();
    this.asks.clear();
    this.sequence.reset();
  }

  /** The unified book of what is kept: numbers, best first, with the fields given (time, source, …). */
  toOrderBook(fields: Omit<OrderBook, 'bids' | 'asks' | 'datetime'>): OrderBook {
    const level = (kept: Level): OrderLevel => ({ price: Number(kept.price), size: Number(kept.size) });
    return normalizeOrderBook({ ...fields, bids: this.bids.sorted('descending').map(level), asks: this.asks.sorted('ascending').map(level) });
  }
}

/**
 * Each watcher's view of a binary market's YES book, for a venue that streams
 * only the YES side: the book as it is for YES, mirrored (a YES bid at p is a
 * NO ask at 1 − p) for NO, mirrored once however many NO watchers there are.
 * A `side` the YES book's `sourceMetadata` names reads `no` in the mirror.
 */
export function yesNoViews(yes: OrderBook): (side: 'yes' | 'no') => OrderBook {
  let no: OrderBook | undefined;
  return (side) => (side === 'yes' ? yes : (no ??= mirrored(yes)));
}

function mirrored(yes: OrderBook): OrderBook {
  const no = invertBinaryBook(yes);
  return yes.sourceMetadata?.side === undefined ? no : { ...no, sourceMetadata: { ...yes.sourceMetadata, side: 'no' } };
}
