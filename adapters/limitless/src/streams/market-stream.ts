import { VenueStream, createFeed, engineUrl, invertBinaryBook, normalizeOrderBook, roundTo, toEpochMs, toNumber } from '@predgate/core';
import type { VenueStreamOptions, Feed, FeedListener, OrderBook, OrderLevel, SocketIoConnection } from '@predgate/core';

/** `url`: the Socket.IO root (`wss://ws.limitless.exchange`); the venue's Engine.IO pings are answered as they come, `pingIntervalMs` paces websocket pings from our side. */
export type LimitlessStreamOptions = VenueStreamOptions;

/** The Socket.IO namespace of the market channels. */
const namespace = '/markets';
/** Raw share amounts carry 6 decimals (as in the REST book). */
const unit = 1e6;

export type BookSide = 'yes' | 'no';

/**
 * Limitless's market websocket for one adapter instance: Socket.IO (Engine.IO
 * v4 frames over one `ws` connection) on the `/markets` namespace. Each
 * `subscribe_market_prices` names every slug wanted (the venue does not say
 * whether a subscribe adds to or replaces the last one; the whole set is right
 * either way); a slug nobody watches any more is sent in
 * `unsubscribe_market_prices`, and the connection closes with the last slug.
 * Every `orderbookUpdate` carries the market's whole YES book, so a book is
 * never patched: NO watchers get its inversion, as `fetchOrderBook` gives
 * them. The venue's Engine.IO pings are answered, and a connection silent
 * for longer than its ping interval plus timeout is dropped. A dropped
 * connection is redialled with backoff and the slugs subscribed again.
 */
export class LimitlessStream extends VenueStream<{ prices: OrderBook }, BookSide> {
  protected readonly connection: SocketIoConnection;

  constructor(private readonly options: LimitlessStreamOptions) {
    super(options.venue, ['prices']);
    this.connection = this.socketIo(options, namespace, (name, payload) => this.event(name, payload));
  }

  /** Market slugs watched now (for tests and status). */
  get slugs(): string[] {
    return this.watchedKeys('prices');
  }

  /** A market's book for one side; `slug` is resolved by the adapter (as `fetchOrderBook` resolves it). */
  watchOrderBook(slug: string, side: BookSide): Feed<OrderBook> {
    return createFeed((emit) => this.attach(slug, side, emit));
  }

  /** Adds a watcher of a market; the returned function takes it away again. */
  attach(slug: string, side: BookSide, emit: FeedListener<OrderBook>): () => void {
    return this.watch('prices', slug, side, emit);
  }

  /** Limitless takes the whole set in each subscribe: new slugs go out with every slug already watched. */
  protected subscribe(): void {
    this.connection.emit('subscribe_market_prices', { marketSlugs: this.subscriptions.keys('prices') });
  }

  protected unsubscribe(_channel: 'prices', slug: string): void {
    this.connection.emit('unsubscribe_market_prices', { marketSlugs: [slug] });
  }

  private event(name: string, payload: unknown): void {
    if (name === 'orderbookUpdate') this.orderbook(payload);
    else if (name === 'exception' || name === 'error') {
      const message = typeof payload === 'object' && payload !== null ? (payload as { message?: unknown }).message : payload;
      this.broadcast(this.venueError(String(message ?? 'error')));
    }
    // `newPriceData` (AMM prices) and the account events are not read here.
  }

  /** `{ marketSlug, orderbook: { bids, asks, lastTradePrice, … }, timestamp }`: the market's whole YES book. */
  private orderbook(payload: unknown): void {
    const update = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
    const slug = update.marketSlug;
    if (typeof slug !== 'string') {
      this.broadcast(this.drift('an orderbookUpdate without marketSlug'));
      return;
    }
    if (!this.watched('prices', slug)) return;
    const raw = (typeof update.orderbook === 'object' && update.orderbook !== null ? update.orderbook : update) as Record<string, unknown>;
    const bids = levelsOf(raw.bids);
    const asks = levelsOf(raw.asks);
    if (!bids || !asks) {
      this.fail('prices', slug, this.drift(`an orderbookUpdate for ${slug.slice(0, 100)} whose bids or asks are not price and size levels`));
      return;
    }
    const lastTradePrice = toNumber(raw.lastTradePrice as number | string | undefined);
    const yes = normalizeOrderBook({
      bids,
      asks,
      timestamp: toEpochMs(update.timestamp as string | number | undefined) ?? this.options.clock.now(),
      ...(lastTradePrice !== undefined && lastTradePrice >= 0 && lastTradePrice <= 1 ? { lastTradePrice } : {}),
      sourceMetadata: { marketSlug: slug, tokenId: raw.tokenId, source: 'stream' },
    });
    this.publish('prices', slug, (side) => viewOf(yes, side), true);
  }
}

/** Kept for callers of the adapter's module; the shared one lives in @predgate/core. */
export { engineUrl };

/** A side of a pushed book, or undefined when any level is not a price in [0, 1] with a size (raw 6-decimal units). */
function levelsOf(value: unknown): OrderLevel[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const levels: OrderLevel[] = [];
  for (const entry of value as unknown[]) {
    if (typeof entry !== 'object' || entry === null) return undefined;
    const { price: rawPrice, size: rawSize } = entry as { price?: number | string; size?: number | string };
    const price = toNumber(rawPrice);
    const size = toNumber(rawSize);
    if (price === undefined || size === undefined || price < 0 || price > 1 || size < 0) return undefined;
    if (size > 0) levels.push({ price, size: roundTo(size / unit, 6) });
  }
  return levels;
}

function viewOf(yes: OrderBook, side: BookSide): OrderBook {
  return side === 'yes' ? yes : { ...invertBinaryBook(yes), sourceMetadata: { ...yes.sourceMetadata, side: 'no' } };
}
