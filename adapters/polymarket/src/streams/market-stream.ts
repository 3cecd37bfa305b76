import { PredgateError, createFeed } from '@predgate/core';
import type { Feed, FeedListener, OrderBook, Trade } from '@predgate/core';
import { BookState, toOrderBook } from './book-state.js';
import { MarketChannel } from './market-channel.js';
import type { MarketChannelOptions } from './market-channel.js';
import type { MarketRow } from './market-rows.js';
import { isTokenId } from '../ids.js';
import { venueId } from '../context.js';

export interface MarketStreamOptions {
  url: string;
  pingIntervalMs: number;
  backoff: { initialMs: number; maxMs: number };
  /**
   * Whether the venue has this outcome token: false when it does not, undefined when it could not say.
   * The market channel is silent about a token it does not have, so this is what refuses one.
   */
  tokenExists(tokenId: string): Promise<boolean | undefined>;
}

/** Market-channel rows that change a token's book. */
const bookRows = new Set<MarketRow['eventType']>(['book', 'price_change', 'tick_size_change', 'last_trade_price']);

/**
 * Live books and prints from Polymarket's CLOB market channel, over one
 * shared `MarketChannel` connection (shared with the archive's recorder): tokens
 * are added to and removed from the connection as feeds start and stop, and
 * the connection closes with the last one. Books are kept from each `book`
 * snapshot plus the `price_change` deltas after it and delivered whole; a
 * drop is reported as a retryable error, and after it each book carries the
 * gap in its `sourceMetadata` until the venue's fresh snapshot arrives.
 */
export class MarketStream {
  private channel: MarketChannel | undefined;
  private readonly books = new Map<string, { state: BookState; listeners: Set<FeedListener<OrderBook>> }>();
  private readonly prints = new Map<string, Set<FeedListener<Trade[]>>>();
  /** Tokens the venue confirmed it has: asked about once. */
  private readonly knownTokens = new Set<string>();
  /** Lookups under way, so a burst of watches of one token asks once. */
  private readonly lookups = new Map<string, Promise<boolean | undefined>>();

  constructor(private readonly options: MarketStreamOptions) {}

  /** Tokens subscribed on the venue connection now. */
  get tokens(): string[] {
    return [...(this.channel?.assetIds ?? [])];
  }

  watchOrderBook(tokenId: string): Feed<OrderBook> {
    return createFeed((emit) => {
      if (!isTokenId(tokenId)) return refuse(emit, tokenId);
      let entry = this.books.get(tokenId);
      if (!entry) {
        entry = { state: new BookState(tokenId), listeners: new Set() };
        this.books.set(tokenId, entry);
      }
      entry.listeners.add(emit);
      // A second watcher of a token already known starts from its current book.
      if (entry.state.known) {
        const book = this.bookOf(entry.state);
        queueMicrotask(() => emit.data(book));
      }
      this.subscribe(tokenId);
      return () => {
        entry.listeners.delete(emit);
        if (entry.listeners.size === 0) this.books.delete(tokenId);
        this.release(tokenId);
      };
    });
  }

  watchTrades(tokenId: string): Feed<Trade[]> {
    return createFeed((emit) => {
      if (!isTokenId(tokenId)) return refuse(emit, tokenId);
      let listeners = this.prints.get(tokenId);
      if (!listeners) {
        listeners = new Set();
        this.prints.set(tokenId, listeners);
      }
      listeners.add(emit);
      this.subscribe(tokenId);
      return () => {
        listeners.delete(emit);
        if (listeners.size === 0) this.prints.delete(tokenId);
        this.release(tokenId);
      };
    });
  }

  async close(): Promise<void> {
    const channel = this.channel;
    this.channel = undefined;
    this.books.clear();
    this.prints.clear();
    await channel?.close();
  }

  private subscribe(tokenId: string): void {
    this.connection().subscribe([tokenId]);
    this.confirm(tokenId);
  }

  /**
   * Asks the venue, alongside the subscription, whether it has the token: one it has not ends the token's
   * watches with OUTCOME_NOT_FOUND. A lookup that fails says nothing; the watch goes on as the venue streams it.
   */
  private confirm(tokenId: string): void {
    if (this.knownTokens.has(tokenId) || this.lookups.has(tokenId)) return;
    const lookup = this.options.tokenExists(tokenId).catch(() => undefined);
    this.lookups.set(tokenId, lookup);
    void lookup.then((exists) => {
      this.lookups.delete(tokenId);
      if (exists === true) this.knownTokens.add(tokenId);
      if (exists !== false) return;
      const error = notFound(tokenId);
      for (const listener of [...(this.books.get(tokenId)?.listeners ?? []), ...(this.prints.get(tokenId) ?? [])]) listener.error(error);
    });
  }

  /** Unsubscribes a token nobody watches any more; closes the connection with the last token. */
  private release(tokenId: string): void {
    if (this.books.has(tokenId) || this.prints.has(tokenId)) return;
    const channel = this.channel;
    if (!channel) return;
    channel.unsubscribe([tokenId]);
    if (channel.assetIds.size === 0) {
      this.channel = undefined;
      void channel.close();
    }
  }

  private connection(): MarketChannel {
    if (this.channel) return this.channel;
    const { url, pingIntervalMs, backoff } = this.options;
    const options: MarketChannelOptions = { url, pingIntervalMs, backoff, customFeatures: false };
    const channel = new MarketChannel(options);
    channel.on('rows', (rows) => this.apply(rows));
    channel.on('unreadable', (error) => {
      // The venue changed a message's shape: say so to every watcher instead of a book that silently stops.
      this.broadcast(
        new PredgateError('EXCHANGE_NOT_AVAILABLE', `Polymarket sent a market-channel message we cannot read: ${error.message}`, {
          exchange: venueId,
          retryable: true,
          detail: { field: error.field },
        }),
      );
    });
    channel.on('close', (code) => {
      if (this.channel !== channel) return;
      this.broadcast(new PredgateError('NETWORK_ERROR', `Polymarket market channel closed (${code}); reconnecting`, { exchange: venueId, retryable: true }));
    });
    channel.on('resumed', (outage) => {
      for (const assetId of outage.assetIds) this.books.get(assetId)?.state.markGap(outage);
    });
    channel.on('error', () => undefined);
    channel.connect();
    this.channel = channel;
    return channel;
  }

  private apply(rows: MarketRow[]): void {
    const changed = new Set<string>();
    const trades = new Map<string, Trade[]>();
    for (const row of rows) {
      const entry = this.books.get(row.assetId);
      if (entry && bookRows.has(row.eventType)) {
        entry.state.apply(row);
        if (entry.state.known) changed.add(row.assetId);
      }
      if (row.eventType === 'last_trade_price' && this.prints.has(row.assetId)) {
        const trade = tradeOf(row);
        if (trade) trades.set(row.assetId, [...(trades.get(row.assetId) ?? []), trade]);
      }
    }
    for (const assetId of changed) {
      const entry = this.books.get(assetId)!;
      const book = this.bookOf(entry.state);
      for (const listener of entry.listeners) listener.data(book);
    }
    for (const [assetId, batch] of trades) for (const listener of this.prints.get(assetId) ?? []) listener.data(batch);
  }

  private bookOf(state: BookState): OrderBook {
    const book = toOrderBook(state.snapshot());
    return { ...book, sourceMetadata: { ...book.sourceMetadata, source: 'stream' } };
  }

  private broadcast(error: PredgateError): void {
    for (const { listeners } of this.books.values()) for (const listener of listeners) listener.error(error);
    for (const listeners of this.prints.values()) for (const listener of listeners) listener.error(error);
  }
}

function notFound(tokenId: string): PredgateError {
  const shown = tokenId.slice(0, 100);
  return new PredgateError('OUTCOME_NOT_FOUND', `Polymarket has no outcome token ${shown}`, {
    exchange: venueId,
    retryable: false,
    detail: { outcomeId: shown },
  });
}

/** A watch of something that cannot be an outcome token: refused at once, and nothing is subscribed. */
function refuse(emit: FeedListener<never>, tokenId: string): () => void {
  queueMicrotask(() => emit.error(notFound(tokenId)));
  return () => undefined;
}

/** A `last_trade_price` row as a print; one without a size (or a zero size) is no print. */
function tradeOf(row: MarketRow): Trade | undefined {
  const price = Number(row.price);
  const amount = Number(row.size);
  if (!(amount > 0) || !(price >= 0 && price <= 1)) return undefined;
  return {
    id: row.transactionHash ?? `${row.assetId}-${row.timestamp}-${row.price}-${row.size}`,
    timestamp: row.timestamp,
    price,
    amount,
    side: row.side === 'BUY' ? 'buy' : row.side === 'SELL' ? 'sell' : 'unknown',
    outcomeId: row.assetId,
  };
}
