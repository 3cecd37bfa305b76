import { PredgateError, VenueStream, createFeed } from '@predgate/core';
import type { Feed, FeedListener, OrderBook, StreamConnection, Trade } from '@predgate/core';
import { BookState, toOrderBook } from './book-state.js';
import { MarketChannel } from './market-channel.js';
import type { MarketRow } from './market-rows.js';
import { isTokenId } from '../ids.js';
import { venueId } from '../venue.js';

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

type Channels = { book: OrderBook; trade: Trade[] };
type Channel = keyof Channels;

/** Market-channel rows that change a token's book. */
const bookRows = new Set<MarketRow['eventType']>(['book', 'price_change', 'tick_size_change', 'last_trade_price']);

/**
 * Live books and prints from Polymarket's CLOB market channel, on the venue
 * stream base over one `MarketChannel` connection (the client the archive's
 * recorder uses too). A token is subscribed once for its book and trade
 * watches, taken off the connection when neither is watched, and the
 * connection closes with the last token. Books are kept from each `book`
 * snapshot plus the `price_change` deltas after it and delivered whole. A drop
 * is told as a retryable error and the books are forgotten: the venue sends a
 * fresh snapshot of every token when the redial subscribes them again.
 */
export class MarketStream extends VenueStream<Channels, null> {
  protected readonly connection: StreamConnection;
  private readonly channel: MarketChannel;
  /** Each watched token's book; its state is replaced by an unknown one when the connection drops. */
  private readonly books = new Map<string, { state: BookState }>();
  /** Tokens the venue confirmed it has: asked about once. */
  private readonly knownTokens = new Set<string>();
  /** Lookups under way, so a burst of watches of one token asks once. */
  private readonly lookups = new Map<string, Promise<boolean | undefined>>();

  constructor(private readonly options: MarketStreamOptions) {
    super(venueId, ['book', 'trade']);
    const { url, pingIntervalMs, backoff } = options;
    const channel = new MarketChannel({ url, pingIntervalMs, backoff, customFeatures: false });
    channel.on('open', () => this.subscriptions.scheduleFlush());
    channel.on('rows', (rows) => this.apply(rows));
    // The venue changed a message's shape: say so to every watcher instead of a book that silently stops.
    channel.on('unreadable', (error) => this.broadcast(this.drift(`a market-channel message we cannot read (${error.message})`)));
    channel.on('down', () => {
      this.connectionDown();
      for (const [tokenId, entry] of this.books) entry.state = new BookState(tokenId);
    });
    channel.on('drop', (error) => this.broadcast(error));
    channel.on('error', () => undefined);
    this.channel = channel;
    this.connection = {
      get isOpen() {
        return channel.connected;
      },
      get active() {
        return channel.active;
      },
      connect: () => channel.connect(),
      close: () => channel.close(),
    };
  }

  /** Tokens subscribed on the venue connection now. */
  get tokens(): string[] {
    return [...this.channel.assetIds];
  }

  watchOrderBook(tokenId: string): Feed<OrderBook> {
    return createFeed((emit) => this.watchToken('book', tokenId, emit));
  }

  watchTrades(tokenId: string): Feed<Trade[]> {
    return createFeed((emit) => this.watchToken('trade', tokenId, emit));
  }

  override async close(): Promise<void> {
    this.books.clear();
    this.channel.unsubscribe([...this.channel.assetIds]);
    await super.close();
  }

  /** One subscription serves a token's book and trades: a token asked for again is not sent again. */
  protected subscribe(_channel: Channel, tokenIds: string[]): void {
    this.channel.subscribe(tokenIds);
  }

  /** The watch's teardown takes a token off the connection once nothing of it is watched (sent on this connection or not). */
  protected unsubscribe(): void {}

  private watchToken<C extends Channel>(channel: C, tokenId: string, emit: FeedListener<Channels[C]>): () => void {
    if (!isTokenId(tokenId)) return this.notAnOutcome(emit, tokenId, 'a CLOB token id');
    let entry = this.books.get(tokenId);
    if (channel === 'book' && !entry) {
      entry = { state: new BookState(tokenId) };
      this.books.set(tokenId, entry);
    }
    const owner = entry;
    const stop = this.watch(channel, tokenId, null, emit);
    this.confirm(tokenId);
    return () => {
      stop();
      if (channel === 'book' && !this.watched('book', tokenId) && this.books.get(tokenId) === owner) this.books.delete(tokenId);
      if (!this.subscriptions.wants('book', tokenId) && !this.subscriptions.wants('trade', tokenId)) this.channel.unsubscribe([tokenId]);
    };
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
      const shown = tokenId.slice(0, 100);
      const error = new PredgateError('OUTCOME_NOT_FOUND', `Polymarket has no outcome token ${shown}`, {
        exchange: venueId,
        retryable: false,
        detail: { outcomeId: shown },
      });
      this.fail('book', tokenId, error);
      this.fail('trade', tokenId, error);
    });
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
      if (row.eventType === 'last_trade_price' && this.watched('trade', row.assetId)) {
        const trade = tradeOf(row);
        if (trade) trades.set(row.assetId, [...(trades.get(row.assetId) ?? []), trade]);
      }
    }
    for (const tokenId of changed) {
      const book = toOrderBook(this.books.get(tokenId)!.state.snapshot());
      const live = { ...book, sourceMetadata: { ...book.sourceMetadata, source: 'stream' } };
      this.publish('book', tokenId, () => live, true);
    }
    for (const [tokenId, batch] of trades) this.publish('trade', tokenId, () => batch);
  }
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
