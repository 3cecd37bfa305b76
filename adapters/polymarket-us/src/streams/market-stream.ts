import { PredgateError, RedialingSocket, Subscriptions, complement, refusedHandshake, createFeed, toEpochMs, toNumber } from '@predgate/core';
import type { Clock, Credentials, Feed, FeedListener, OrderBook, Trade } from '@predgate/core';
import { PolymarketUsSigner } from '../auth/signer.js';
import { normalizeBook, outcomeIdOf } from '../normalize.js';
import type { Side } from '../normalize.js';
import type { RawBook } from '../api.js';

export interface PolymarketUsStreamOptions {
  /** The markets websocket (`wss://api.polymarket.us/v1/ws/markets`); its path is what the handshake signs. */
  url: string;
  venue: string;
  /** The handshake is signed even for public data: the caller's key, else the operator's stream key. */
  credentials: Credentials | undefined;
  clock: Clock;
  pingIntervalMs: number;
  backoff: { initialMs: number; maxMs: number };
}

type Kind = 'book' | 'trade';
const kinds: Kind[] = ['book', 'trade'];
const subscriptionType: Record<Kind, string> = { book: 'SUBSCRIPTION_TYPE_MARKET_DATA', trade: 'SUBSCRIPTION_TYPE_TRADE' };

interface Watcher<T> {
  side: Side;
  emit: FeedListener<T>;
}

/** One market's long-side book as last pushed, and who watches it (either side). */
interface Market {
  book: RawBook | undefined;
  watchers: Set<Watcher<OrderBook>>;
}

/**
 * Polymarket US's markets websocket for one adapter instance: one connection,
 * its handshake signed with Ed25519 like the REST calls (`{ts}GET/v1/ws/markets`).
 * Each market slug gets its own subscription (a request id per slug and kind),
 * so a slug nobody watches is unsubscribed alone and a new one subscribed
 * alone; the connection closes with the last. A `marketData` frame is the
 * market's whole long-side book, so it replaces the one before; the short
 * side's watchers get its mirror, as `fetchOrderBook` gives it. Trades come
 * from `SUBSCRIPTION_TYPE_TRADE`, priced on the long side and mirrored for
 * short. A dropped connection is redialled with backoff and every slug
 * subscribed again.
 */
export class PolymarketUsStream {
  private readonly socket: RedialingSocket;
  private nextId = 1;
  private readonly markets = new Map<string, Market>();
  private readonly prints = new Map<string, Set<Watcher<Trade[]>>>();
  /** Slugs by kind: wanted while `markets` or `prints` holds them. */
  private readonly subscriptions: Subscriptions<Kind>;
  /** Request id → what it subscribed, for the venue's answers and refusals: one per slug and kind sent on the open connection. */
  private readonly requests = new Map<string, { kind: Kind; slug: string }>();

  constructor(private readonly options: PolymarketUsStreamOptions) {
    this.subscriptions = new Subscriptions({
      channels: kinds,
      canSend: () => this.socket.isOpen,
      subscribe: (kind, slugs) => {
        for (const slug of slugs) {
          const requestId = `${kind}-${this.nextId++}`;
          this.requests.set(requestId, { kind, slug });
          this.send({ subscribe: { requestId, subscriptionType: subscriptionType[kind], marketSlugs: [slug] } });
        }
      },
      unsubscribe: (kind, slug) => this.unsubscribe(kind, slug),
      onIdle: () => void this.socket.close(),
    });
    this.socket = new RedialingSocket({
      venue: options.venue,
      dial: () => ({ url: options.url, headers: this.signer().headers('GET', new URL(options.url).pathname, Math.floor(options.clock.now())) }),
      pingIntervalMs: options.pingIntervalMs,
      backoff: options.backoff,
      wanted: () => !this.subscriptions.idle,
      onOpen: () => this.subscriptions.scheduleFlush(),
      onMessage: (text) => this.receive(text),
      onDown: () => this.resetConnectionState(),
      onDrop: (error) => this.broadcast(error),
      onRefused: (status) => refusedHandshake(options.venue, status),
    });
  }

  /** Slugs watched now, by kind (for tests and status). */
  get slugs(): Record<Kind, string[]> {
    return { book: [...this.markets.keys()], trade: [...this.prints.keys()] };
  }

  watchOrderBook(slug: string, side: Side): Feed<OrderBook> {
    return createFeed((emit) => {
      let market = this.markets.get(slug);
      if (!market) {
        market = { book: undefined, watchers: new Set() };
        this.markets.set(slug, market);
      }
      const watcher: Watcher<OrderBook> = { side, emit };
      market.watchers.add(watcher);
      if (market.book) {
        const view = this.viewOf(market.book, slug, side);
        queueMicrotask(() => emit.data(view));
      }
      if (!this.start(emit, 'book', slug)) {
        market.watchers.delete(watcher);
        if (market.watchers.size === 0) this.markets.delete(slug);
        return () => undefined;
      }
      const owner = market;
      return () => {
        owner.watchers.delete(watcher);
        if (owner.watchers.size > 0 || this.markets.get(slug) !== owner) return;
        this.markets.delete(slug);
        this.subscriptions.unwant('book', slug);
      };
    });
  }

  watchTrades(slug: string, side: Side): Feed<Trade[]> {
    return createFeed((emit) => {
      let watchers = this.prints.get(slug);
      if (!watchers) {
        watchers = new Set();
        this.prints.set(slug, watchers);
      }
      const watcher: Watcher<Trade[]> = { side, emit };
      watchers.add(watcher);
      if (!this.start(emit, 'trade', slug)) {
        watchers.delete(watcher);
        if (watchers.size === 0) this.prints.delete(slug);
        return () => undefined;
      }
      const owner = watchers;
      return () => {
        owner.delete(watcher);
        if (owner.size > 0 || this.prints.get(slug) !== owner) return;
        this.prints.delete(slug);
        this.subscriptions.unwant('trade', slug);
      };
    });
  }

  async close(): Promise<void> {
    this.markets.clear();
    this.prints.clear();
    this.subscriptions.clear();
    await this.socket.close();
  }

  /** Connects (when not yet) and wants the slug; false, with the reason sent to `emit`, when the handshake cannot be signed. */
  private start(emit: FeedListener<never>, kind: Kind, slug: string): boolean {
    if (!this.socket.active) {
      try {
        this.signer();
      } catch (error) {
        queueMicrotask(() => emit.error(error as PredgateError));
        return false;
      }
      this.socket.connect();
    }
    this.subscriptions.want(kind, slug);
    // Flushed even for a slug wanted already: a subscription the venue refused is asked for again.
    this.subscriptions.scheduleFlush();
    return true;
  }

  private signer(): PolymarketUsSigner {
    const { venue, credentials } = this.options;
    const secret = credentials?.privateKey ?? credentials?.apiSecret;
    const refuse = (why: string) =>
      new PredgateError('AUTHENTICATION_ERROR', `${venue}: its markets websocket needs an API key, even for public data: ${why}`, {
        exchange: venue,
        retryable: false,
      });
    if (!credentials?.apiKey || !secret)
      throw refuse("send credentials with the subscription (apiKey, privateKey) or configure the adapter's stream.credentials");
    try {
      return new PolymarketUsSigner(credentials.apiKey, secret);
    } catch {
      throw refuse('privateKey must be the base64 Ed25519 secret key shown when the API key was created');
    }
  }

  /** The venue unsubscribes by request id: the one that subscribed this slug and kind. */
  private unsubscribe(kind: Kind, slug: string): void {
    for (const [requestId, request] of this.requests) {
      if (request.kind !== kind || request.slug !== slug) continue;
      this.requests.delete(requestId);
      this.send({ unsubscribe: { requestId } });
    }
  }

  private resetConnectionState(): void {
    this.subscriptions.reset();
    this.requests.clear();
    // A book seen before the drop may have changed since: watchers wait for the fresh snapshot.
    for (const market of this.markets.values()) market.book = undefined;
  }

  private send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  private receive(text: string): void {
    let message: Record<string, unknown>;
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      message = parsed as Record<string, unknown>;
    } catch {
      this.broadcast(this.drift('a frame that is not a JSON object'));
      return;
    }
    if ('heartbeat' in message) return;
    if (message.error !== undefined) {
      this.refused(message.requestId, message.error);
      return;
    }
    if ('marketData' in message) {
      this.book(message.marketData);
      return;
    }
    if ('trade' in message) {
      this.trade(message.trade);
      return;
    }
    // The lite quotes and anything else the venue adds are not read.
  }

  /** `marketData`: the market's whole long-side book (`bids`, `offers` of `{px: {value}, qty}`), replacing the last one. */
  private book(value: unknown): void {
    const data = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    const slug = data.marketSlug;
    if (typeof slug !== 'string') {
      this.broadcast(this.drift('a marketData frame without marketSlug'));
      return;
    }
    const market = this.markets.get(slug);
    if (!market) return;
    const bids = data.bids ?? [];
    const offers = data.offers ?? [];
    if (!levelsReadable(bids) || !levelsReadable(offers)) {
      const error = this.drift(`a marketData frame for ${slug.slice(0, 100)} whose bids or offers are not {px: {value}, qty} levels with prices in [0, 1]`);
      for (const watcher of market.watchers) watcher.emit.error(error);
      return;
    }
    const transactTime = typeof data.transactTime === 'string' ? data.transactTime : undefined;
    market.book = { bids, offers, ...(transactTime === undefined ? {} : { transactTime }) };
    for (const watcher of market.watchers) watcher.emit.data(this.viewOf(market.book, slug, watcher.side));
  }

  private viewOf(raw: RawBook, slug: string, side: Side): OrderBook {
    const book = normalizeBook(raw, side, this.options.clock.now());
    return { ...book, sourceMetadata: { marketSlug: slug, side, source: 'stream' } };
  }

  /** `trade`: `{marketSlug, price: {value}, quantity: {value}, tradeTime, taker: {intent}}`, priced on the long side. */
  private trade(value: unknown): void {
    const trade = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    const slug = trade.marketSlug;
    if (typeof slug !== 'string') {
      this.broadcast(this.drift('a trade frame without marketSlug'));
      return;
    }
    const watchers = this.prints.get(slug);
    if (!watchers) return;
    const price = amountOf(trade.price);
    const amount = amountOf(trade.quantity);
    if (price === undefined || price < 0 || price > 1 || amount === undefined || !(amount > 0)) {
      const error = this.drift(`a trade for ${slug.slice(0, 100)} without a price in [0, 1] and a quantity`);
      for (const watcher of watchers) watcher.emit.error(error);
      return;
    }
    const timestamp = toEpochMs(trade.tradeTime as string | number | undefined) ?? this.options.clock.now();
    const intent = String((trade.taker as { intent?: unknown } | undefined)?.intent ?? '');
    const match = /^ORDER_INTENT_(BUY|SELL)_(LONG|SHORT)$/.exec(intent);
    // Buying long and selling short both take the long side.
    const takerLong = match ? (match[1] === 'BUY') === (match[2] === 'LONG') : undefined;
    const id = String(trade.id ?? trade.tradeId ?? `${slug}-${String(trade.tradeTime)}-${price}-${amount}`);
    for (const watcher of watchers) {
      watcher.emit.data([
        {
          id,
          timestamp,
          price: watcher.side === 'long' ? price : complement(price),
          amount,
          side: takerLong === undefined ? 'unknown' : takerLong === (watcher.side === 'long') ? 'buy' : 'sell',
          outcomeId: outcomeIdOf(slug, watcher.side),
        },
      ]);
    }
  }

  /** The venue refused a subscription: an unknown market ends its watches; anything else is retried on reconnect. */
  private refused(requestId: unknown, error: unknown): void {
    const { venue } = this.options;
    const text = String(typeof error === 'object' && error !== null ? ((error as { message?: unknown }).message ?? JSON.stringify(error)) : error).slice(
      0,
      200,
    );
    const request = typeof requestId === 'string' ? this.requests.get(requestId) : undefined;
    if (!request) {
      this.broadcast(new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} websocket: ${text}`, { exchange: venue, retryable: true }));
      return;
    }
    this.requests.delete(requestId as string);
    this.subscriptions.forget(request.kind, request.slug);
    const notFound = /not found|unknown|does not exist|invalid market/i.test(text);
    const failure = notFound
      ? new PredgateError('MARKET_NOT_FOUND', `${venue}: ${text} (${request.slug.slice(0, 100)})`, { exchange: venue, retryable: false })
      : new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} refused the subscription: ${text}`, { exchange: venue, retryable: true });
    const watchers = request.kind === 'book' ? this.markets.get(request.slug)?.watchers : this.prints.get(request.slug);
    for (const watcher of watchers ?? []) watcher.emit.error(failure);
  }

  private drift(what: string): PredgateError {
    const { venue } = this.options;
    return new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} websocket sent ${what}: not read`, { exchange: venue, retryable: true });
  }

  private broadcast(error: PredgateError): void {
    for (const market of this.markets.values()) for (const watcher of market.watchers) watcher.emit.error(error);
    for (const watchers of this.prints.values()) for (const watcher of watchers) watcher.emit.error(error);
  }
}

/** An `Amount` (`{value, currency}`) or a bare number or string. */
function amountOf(value: unknown): number | undefined {
  const raw = typeof value === 'object' && value !== null ? (value as { value?: unknown }).value : value;
  return typeof raw === 'string' || typeof raw === 'number' ? toNumber(raw) : undefined;
}

function levelsReadable(value: unknown): value is RawBook['bids'] {
  if (!Array.isArray(value)) return false;
  return (value as unknown[]).every((entry) => {
    if (typeof entry !== 'object' || entry === null) return false;
    const { px, qty } = entry as { px?: unknown; qty?: unknown };
    const price = amountOf(px);
    const size = typeof qty === 'string' || typeof qty === 'number' ? toNumber(qty) : undefined;
    return typeof px === 'object' && price !== undefined && price >= 0 && price <= 1 && size !== undefined && size >= 0;
  });
}
