import {
  EngineSession,
  PredgateError,
  RedialingSocket,
  Subscriptions,
  connectErrorMessage,
  createFeed,
  decodePacket,
  disconnectFrame,
  engineUrl,
  eventFrame,
  eventOf,
  invertBinaryBook,
  normalizeOrderBook,
  roundTo,
  toEpochMs,
  toNumber,
} from '@predgate/core';
import type { Clock, Feed, FeedListener, OrderBook, OrderLevel } from '@predgate/core';

export interface LimitlessStreamOptions {
  /** Socket.IO root (`wss://ws.limitless.exchange`); the Engine.IO path and query are added here. */
  url: string;
  venue: string;
  clock: Clock;
  /** Websocket pings from our side; the venue's Engine.IO pings are answered as they come. */
  pingIntervalMs: number;
  backoff: { initialMs: number; maxMs: number };
}

/** The Socket.IO namespace of the market channels. */
const namespace = '/markets';
/** Raw share amounts carry 6 decimals (as in the REST book). */
const unit = 1e6;

export type BookSide = 'yes' | 'no';

interface Watcher {
  side: BookSide;
  emit: FeedListener<OrderBook>;
}

/** One market's YES-quoted book as last pushed, and who watches it. */
interface Market {
  yes: OrderBook | undefined;
  watchers: Set<Watcher>;
}

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
export class LimitlessStream {
  private readonly socket: RedialingSocket;
  /** The namespace is joined on the open connection: subscriptions can be sent. */
  private joined = false;
  private readonly engine: EngineSession;
  private readonly markets = new Map<string, Market>();
  private readonly subscriptions: Subscriptions<'prices'>;

  constructor(private readonly options: LimitlessStreamOptions) {
    this.socket = new RedialingSocket({
      venue: options.venue,
      dial: () => ({ url: engineUrl(options.url) }),
      pingIntervalMs: options.pingIntervalMs,
      backoff: options.backoff,
      confirmedOn: 'confirm',
      wanted: () => this.markets.size > 0,
      onMessage: (text) => this.engine.receive(text),
      onDown: () => this.resetConnectionState(),
      onDrop: (error) => this.broadcast(error),
      onRefused: (status) =>
        new PredgateError('EXCHANGE_NOT_AVAILABLE', `${options.venue} refused the websocket handshake (${status})`, {
          exchange: options.venue,
          retryable: true,
        }),
      farewell: () => disconnectFrame(namespace),
    });
    this.subscriptions = new Subscriptions({
      channels: ['prices'],
      canSend: () => this.joined,
      // Limitless takes the whole set in each subscribe: new slugs go out with every slug already watched.
      subscribe: () => this.emitEvent('subscribe_market_prices', { marketSlugs: this.subscriptions.keys('prices') }),
      unsubscribe: (_channel, slug) => this.emitEvent('unsubscribe_market_prices', { marketSlugs: [slug] }),
      onIdle: () => void this.disconnect(),
    });
    this.engine = new EngineSession(this.socket, namespace, {
      packet: (text) => this.packet(text),
      unknown: (description) => this.broadcast(this.drift(description)),
    });
  }

  /** Market slugs watched now (for tests and status). */
  get slugs(): string[] {
    return [...this.markets.keys()];
  }

  /** A market's book for one side; `slug` is resolved by the adapter (as `fetchOrderBook` resolves it). */
  watchOrderBook(slug: string, side: BookSide): Feed<OrderBook> {
    return createFeed((emit) => this.attach(slug, side, emit));
  }

  /** Adds a watcher of a market; the returned function takes it away again. */
  attach(slug: string, side: BookSide, emit: FeedListener<OrderBook>): () => void {
    let market = this.markets.get(slug);
    if (!market) {
      market = { yes: undefined, watchers: new Set() };
      this.markets.set(slug, market);
    }
    const watcher: Watcher = { side, emit };
    market.watchers.add(watcher);
    if (market.yes) {
      const view = viewOf(market.yes, side);
      queueMicrotask(() => emit.data(view));
    }
    this.connect();
    this.subscriptions.want('prices', slug);
    const owner = market;
    return () => {
      owner.watchers.delete(watcher);
      if (owner.watchers.size > 0 || this.markets.get(slug) !== owner) return;
      this.markets.delete(slug);
      this.subscriptions.unwant('prices', slug);
    };
  }

  async close(): Promise<void> {
    this.markets.clear();
    this.subscriptions.clear();
    await this.disconnect();
  }

  private connect(): void {
    this.socket.connect();
  }

  private disconnect(): Promise<void> {
    return this.socket.close();
  }

  private resetConnectionState(): void {
    this.engine.stop();
    this.joined = false;
    this.subscriptions.reset();
    // A book seen before the drop may have changed since: watchers wait for the next push.
    for (const market of this.markets.values()) market.yes = undefined;
  }

  private emitEvent(name: string, payload: unknown): void {
    if (this.joined) this.socket.send(eventFrame(namespace, name, payload));
  }

  /** A Socket.IO packet: `<type>[/namespace,][ack id][JSON]`. */
  private packet(text: string): void {
    const packet = decodePacket(text);
    if (typeof packet === 'string') {
      this.broadcast(this.drift(packet));
      return;
    }
    if (packet.namespace !== namespace) return;
    const { venue } = this.options;
    switch (packet.type) {
      case '0':
        this.joined = true;
        this.socket.confirm();
        this.subscriptions.scheduleFlush();
        return;
      case '1':
        // The server left the namespace: drop the connection and redial.
        this.socket.terminate();
        return;
      case '4':
        this.broadcast(
          new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} refused the ${namespace} namespace: ${connectErrorMessage(packet.data)}`, {
            exchange: venue,
            retryable: true,
          }),
        );
        this.socket.terminate();
        return;
      case '2':
        this.event(packet.data);
        return;
      default:
        return;
    }
  }

  private event(data: unknown): void {
    const event = eventOf(data);
    if (!event) {
      this.broadcast(this.drift('an event without a name'));
      return;
    }
    const { name, payload } = event;
    if (name === 'orderbookUpdate') this.orderbook(payload);
    else if (name === 'exception' || name === 'error') {
      const message = typeof payload === 'object' && payload !== null ? (payload as { message?: unknown }).message : payload;
      const { venue } = this.options;
      this.broadcast(
        new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} websocket: ${String(message ?? 'error').slice(0, 200)}`, { exchange: venue, retryable: true }),
      );
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
    const market = this.markets.get(slug);
    if (!market) return;
    const raw = (typeof update.orderbook === 'object' && update.orderbook !== null ? update.orderbook : update) as Record<string, unknown>;
    const bids = levelsOf(raw.bids);
    const asks = levelsOf(raw.asks);
    if (!bids || !asks) {
      this.deliverError(market, this.drift(`an orderbookUpdate for ${slug.slice(0, 100)} whose bids or asks are not price and size levels`));
      return;
    }
    const lastTradePrice = toNumber(raw.lastTradePrice as number | string | undefined);
    market.yes = normalizeOrderBook({
      bids,
      asks,
      timestamp: toEpochMs(update.timestamp as string | number | undefined) ?? this.options.clock.now(),
      ...(lastTradePrice !== undefined && lastTradePrice >= 0 && lastTradePrice <= 1 ? { lastTradePrice } : {}),
      sourceMetadata: { marketSlug: slug, tokenId: raw.tokenId, source: 'stream' },
    });
    for (const watcher of market.watchers) watcher.emit.data(viewOf(market.yes, watcher.side));
  }

  private drift(what: string): PredgateError {
    const { venue } = this.options;
    return new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} websocket sent ${what}: not read`, { exchange: venue, retryable: true });
  }

  private deliverError(market: Market, error: PredgateError): void {
    for (const watcher of market.watchers) watcher.emit.error(error);
  }

  private broadcast(error: PredgateError): void {
    for (const market of this.markets.values()) this.deliverError(market, error);
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
