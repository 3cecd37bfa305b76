import type { OrderBook, OrderLevel } from '@predgate/core';
import type { MarketRow, PriceLevel } from './market-rows.js';
import { TextLevels } from './text-levels.js';

/** A time a connection covering `assetIds` (every token when absent) was down. */
export interface BookGap {
  from: number;
  to: number;
  assetIds?: string[];
}

/** A token's book as rows leave it, plus what else a book reports at that moment. */
export interface BookSnapshot {
  assetId: string;
  market: string;
  /** Venue time of the last row applied. */
  timestamp: number;
  bids: PriceLevel[];
  asks: PriceLevel[];
  tickSize?: string;
  lastTradePrice?: string;
  /** Receive time of the last full snapshot (`book` row) the levels start from. */
  syncedAt?: number;
  /** Set when a connection was down since the last full snapshot: the levels may be stale. */
  gap?: { from: number; to: number };
}

/**
 * One token's L2 book maintained row by row: a `book` row replaces both sides,
 * a `price_change` row sets the new total at its price ("0" removes the
 * level). Levels are keyed by their numeric value so "0.50" and "0.5" are one
 * level, and kept as the venue's text. The recorder writes a token's book
 * into its journal every few hundred rows, so the book also writes itself as
 * JSON bytes (`writeJson`) without building a snapshot first.
 */
export class BookState {
  private readonly bids = new TextLevels();
  private readonly asks = new TextLevels();
  private hasSnapshot = false;
  private market = '';
  /** The start of the book's JSON text (the token id and the market, escaped), made when first written. */
  private headJson: string | undefined;
  private time = 0;
  private tickSize: string | undefined;
  private lastTradePrice: string | undefined;
  private syncedAt: number | undefined;
  private gap: { from: number; to: number } | undefined;

  constructor(readonly assetId: string) {}

  static from(snapshot: BookSnapshot): BookState {
    const state = new BookState(snapshot.assetId);
    state.replaceLevels(snapshot.bids, snapshot.asks);
    state.market = snapshot.market;
    state.time = snapshot.timestamp;
    state.tickSize = snapshot.tickSize;
    state.lastTradePrice = snapshot.lastTradePrice;
    state.syncedAt = snapshot.syncedAt;
    state.gap = snapshot.gap;
    return state;
  }

  /** Venue time of the latest row applied (the largest seen: rows stamped earlier do not move it back). */
  get timestamp(): number {
    return this.time;
  }

  /** True once a full snapshot was seen: deltas before that describe an unknown book. */
  get known(): boolean {
    return this.hasSnapshot;
  }

  apply(row: MarketRow): void {
    if (row.assetId !== this.assetId) return;
    switch (row.eventType) {
      case 'book':
        this.replaceLevels(row.bids ?? [], row.asks ?? []);
        this.syncedAt = row.receivedAt;
        this.gap = undefined;
        if (row.newTickSize) this.tickSize = row.newTickSize;
        if (row.price) this.lastTradePrice = row.price;
        break;
      case 'price_change':
        if (row.price === undefined || row.size === undefined) return;
        (row.side === 'BUY' ? this.bids : this.asks).set(row.price, row.size);
        break;
      case 'tick_size_change':
        if (row.newTickSize) this.tickSize = row.newTickSize;
        break;
      case 'last_trade_price':
        if (row.price) this.lastTradePrice = row.price;
        break;
      default:
        return;
    }
    // Kept only when it changes: each row's copy of the same id would otherwise be kept until the token's next row.
    if (row.market !== '' && row.market !== this.market) {
      this.market = row.market;
      this.headJson = undefined;
    }
    this.time = Math.max(this.time, row.timestamp);
  }

  /** A connection covering this token was down: what follows may have missed changes until the next full snapshot. */
  markGap(gap: BookGap): void {
    if (gap.assetIds && !gap.assetIds.includes(this.assetId)) return;
    this.gap = this.gap ? { from: this.gap.from, to: Math.max(this.gap.to, gap.to) } : { from: gap.from, to: gap.to };
  }

  /** A full snapshot's levels: from here on the book is known. */
  private replaceLevels(bids: readonly PriceLevel[], asks: readonly PriceLevel[]): void {
    this.bids.clear();
    this.asks.clear();
    for (const level of bids) this.bids.set(level.price, level.size);
    for (const level of asks) this.asks.set(level.price, level.size);
    this.hasSnapshot = true;
  }

  snapshot(): BookSnapshot {
    return {
      assetId: this.assetId,
      market: this.market,
      timestamp: this.time,
      // Worst to best, as the venue sends them.
      bids: this.bids.levels('ascending'),
      asks: this.asks.levels('descending'),
      ...(this.tickSize !== undefined ? { tickSize: this.tickSize } : {}),
      ...(this.lastTradePrice !== undefined ? { lastTradePrice: this.lastTradePrice } : {}),
      ...(this.syncedAt !== undefined ? { syncedAt: this.syncedAt } : {}),
      ...(this.gap ? { gap: { ...this.gap } } : {}),
    };
  }

  /**
   * Writes `JSON.stringify(this.snapshot())` as UTF-8 into `target` from
   * `offset` and returns the offset after it; -1 when it does not fit (the
   * bytes from `offset` on are then undefined). The levels are plain decimal
   * text, written a byte a character; the ids are escaped once.
   */
  writeJson(target: Buffer, offset: number): number {
    this.headJson ??= `{"assetId":${JSON.stringify(this.assetId)},"market":${JSON.stringify(this.market)},"timestamp":`;
    let at = writeText(target, offset, `${this.headJson}${jsonNumber(this.time)},"bids":`);
    if (at >= 0) at = this.bids.writeJson('ascending', target, at);
    if (at >= 0) at = writeText(target, at, ',"asks":');
    if (at >= 0) at = this.asks.writeJson('descending', target, at);
    if (at < 0) return -1;
    let tail = '';
    if (this.tickSize !== undefined) tail += `,"tickSize":${JSON.stringify(this.tickSize)}`;
    if (this.lastTradePrice !== undefined) tail += `,"lastTradePrice":${JSON.stringify(this.lastTradePrice)}`;
    if (this.syncedAt !== undefined) tail += `,"syncedAt":${jsonNumber(this.syncedAt)}`;
    if (this.gap) tail += `,"gap":{"from":${jsonNumber(this.gap.from)},"to":${jsonNumber(this.gap.to)}}`;
    return writeText(target, at, `${tail}}`);
  }
}

/** Writes text as UTF-8 at `offset`; returns the offset after it, or -1 when it does not fit. */
function writeText(target: Buffer, offset: number, text: string): number {
  // A UTF-16 unit takes at most three bytes; only text that might not fit is measured.
  if (offset + text.length * 3 > target.length && offset + Buffer.byteLength(text) > target.length) return -1;
  return offset + target.write(text, offset, 'utf8');
}

/** A number as JSON writes it (`null` when not finite). */
function jsonNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}

/** The unified book: best first on both sides, numbers, the moment's tick size and last trade. */
export function toOrderBook(snapshot: BookSnapshot, extra: { isNegRisk?: boolean } = {}): OrderBook {
  const level = ({ price, size }: PriceLevel): OrderLevel => ({ price: Number(price), size: Number(size) });
  return {
    bids: snapshot.bids.map(level).reverse(),
    asks: snapshot.asks.map(level).reverse(),
    timestamp: snapshot.timestamp,
    datetime: new Date(snapshot.timestamp).toISOString(),
    ...(extra.isNegRisk !== undefined ? { isNegRisk: extra.isNegRisk } : {}),
    ...(snapshot.lastTradePrice !== undefined ? { lastTradePrice: Number(snapshot.lastTradePrice) } : {}),
    sourceMetadata: {
      source: 'archive',
      assetId: snapshot.assetId,
      market: snapshot.market,
      ...(snapshot.tickSize !== undefined ? { tickSize: Number(snapshot.tickSize) } : {}),
      ...(snapshot.gap ? { gap: { from: snapshot.gap.from, to: snapshot.gap.to, complete: false } } : {}),
    },
  };
}
