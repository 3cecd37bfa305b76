import { BookState } from '@predgate/adapter-polymarket/streams';
import type { BookSnapshot, MarketRow, PriceLevel } from '@predgate/adapter-polymarket/streams';

/**
 * One side's levels kept in order as they change (binary search, one splice),
 * so a book is read out by copying, never by sorting. Keyed by numeric value,
 * as `BookState` keys them: "0.50" and "0.5" are one level, the latest string wins.
 */
class SortedSide {
  private readonly prices: number[] = [];
  private readonly levels: PriceLevel[] = [];

  constructor(private readonly descending: boolean) {}

  set(level: PriceLevel): void {
    const price = Number(level.price);
    const index = this.position(price);
    const present = this.prices[index] === price;
    if (Number(level.size) === 0) {
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
  }

  clear(): void {
    this.prices.length = 0;
    this.levels.length = 0;
  }

  list(): PriceLevel[] {
    return this.levels.slice();
  }

  /** Index of `price`, or where it would go. */
  private position(price: number): number {
    let low = 0;
    let high = this.prices.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const before = this.descending ? this.prices[middle]! > price : this.prices[middle]! < price;
      if (before) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * The book a reconstruction replays: `BookState`'s rules, with levels kept
 * sorted as rows change them, so a range of a thousand books copies each book's
 * levels instead of sorting them a thousand times. `BookState` keeps
 * everything but the levels (it is handed rows without them); the two sides
 * here keep the levels, in the venue's order (bids ascending, asks descending).
 */
export class ReplayBook {
  private readonly rest: BookState;
  private readonly bids = new SortedSide(false);
  private readonly asks = new SortedSide(true);

  private constructor(
    readonly assetId: string,
    from?: BookSnapshot,
  ) {
    this.rest = from ? BookState.from({ ...from, bids: [], asks: [] }) : new BookState(assetId);
    for (const level of from?.bids ?? []) this.bids.set(level);
    for (const level of from?.asks ?? []) this.asks.set(level);
  }

  static empty(assetId: string): ReplayBook {
    return new ReplayBook(assetId);
  }

  static from(snapshot: BookSnapshot): ReplayBook {
    return new ReplayBook(snapshot.assetId, snapshot);
  }

  get known(): boolean {
    return this.rest.known;
  }

  get timestamp(): number {
    return this.rest.timestamp;
  }

  apply(row: MarketRow): void {
    if (row.assetId !== this.assetId) return;
    if (row.eventType === 'book') {
      this.bids.clear();
      this.asks.clear();
      for (const level of row.bids ?? []) this.bids.set(level);
      for (const level of row.asks ?? []) this.asks.set(level);
      this.rest.apply({ ...row, bids: [], asks: [] });
    } else if (row.eventType === 'price_change') {
      if (row.price === undefined || row.size === undefined) return;
      (row.side === 'BUY' ? this.bids : this.asks).set({ price: row.price, size: row.size });
      // The change's time and market, without its level: a size of "0" at a price the state does not hold changes no level.
      this.rest.apply({ ...row, size: '0' });
    } else {
      this.rest.apply(row);
    }
  }

  snapshot(): BookSnapshot {
    return { ...this.rest.snapshot(), bids: this.bids.list(), asks: this.asks.list() };
  }
}
