import { PredgateError, VenueStream, complement, createFeed, refusedHandshake, toEpochMs, toNumber } from '@predgate/core';
import type { VenueStreamOptions, Credentials, Feed, FeedListener, OrderBook, Trade, RedialingSocket } from '@predgate/core';
import { PolymarketUsSigner } from '../auth/signer.js';
import { outcomeIdOf } from '../ids.js';
import { normalizeBook } from '../normalize/markets.js';
import type { Side } from '../ids.js';
import type { RawBook } from '../api/schemas.js';

/** `url`: the markets websocket (`wss://api.polymarket.us/v1/ws/markets`); its path is what the handshake signs. */
export interface PolymarketUsStreamOptions extends VenueStreamOptions {
  /** The handshake is signed even for public data: the caller's key, else the operator's stream key. */
  credentials: Credentials | undefined;
}

type Kind = 'book' | 'trade';
const kinds: Kind[] = ['book', 'trade'];
const subscriptionType: Record<Kind, string> = { book: 'SUBSCRIPTION_TYPE_MARKET_DATA', trade: 'SUBSCRIPTION_TYPE_TRADE' };

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
export class PolymarketUsStream extends VenueStream<{ book: OrderBook; trade: Trade[] }, Side> {
  protected readonly connection: RedialingSocket;
  private nextId = 1;
  /** Request id → what it subscribed, for the venue's answers and refusals: one per slug and kind sent on the open connection. */
  private readonly requests = new Map<string, { kind: Kind; slug: string }>();

  constructor(private readonly options: PolymarketUsStreamOptions) {
    super(options.venue, kinds);
    this.connection = this.plainSocket({
      dial: () => ({ url: options.url, headers: this.signer().headers('GET', new URL(options.url).pathname, Math.floor(options.clock.now())) }),
      pingIntervalMs: options.pingIntervalMs,
      backoff: options.backoff,
      onMessage: (text) => this.receive(text),
      onDown: () => this.requests.clear(),
      onRefused: (status) => refusedHandshake(options.venue, status),
    });
  }

  /** Slugs watched now, by kind (for tests and status). */
  get slugs(): Record<Kind, string[]> {
    return { book: this.watchedKeys('book'), trade: this.watchedKeys('trade') };
  }

  watchOrderBook(slug: string, side: Side): Feed<OrderBook> {
    return createFeed((emit) => this.start(emit) ?? this.watch('book', slug, side, emit));
  }

  watchTrades(slug: string, side: Side): Feed<Trade[]> {
    return createFeed((emit) => this.start(emit) ?? this.watch('trade', slug, side, emit));
  }

  protected subscribe(kind: Kind, slugs: string[]): void {
    for (const slug of slugs) {
      const requestId = `${kind}-${this.nextId++}`;
      this.requests.set(requestId, { kind, slug });
      this.send({ subscribe: { requestId, subscriptionType: subscriptionType[kind], marketSlugs: [slug] } });
    }
  }

  /** The venue unsubscribes by request id: the one that subscribed this slug and kind. */
  protected unsubscribe(kind: Kind, slug: string): void {
    for (const [requestId, request] of this.requests) {
      if (request.kind !== kind || request.slug !== slug) continue;
      this.requests.delete(requestId);
      this.send({ unsubscribe: { requestId } });
    }
  }

  /** Before the first dial, the handshake must be signable: otherwise the reason goes to `emit` and the watch ends (the teardown returned). */
  private start(emit: FeedListener<never>): (() => void) | undefined {
    if (this.connection.active) return undefined;
    try {
      this.signer();
      return undefined;
    } catch (error) {
      queueMicrotask(() => emit.error(error as PredgateError));
      return () => undefined;
    }
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

  private send(message: unknown): void {
    this.connection.send(JSON.stringify(message));
  }

  private receive(text: string): void {
    const message = this.messageOf(text);
    if (!message) return;
    if ('heartbeat' in message) return;
    if (message.error !== undefined) {
      this.answered(message.requestId, message.error);
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
    if (!this.watched('book', slug)) return;
    const bids = data.bids ?? [];
    const offers = data.offers ?? [];
    if (!levelsReadable(bids) || !levelsReadable(offers)) {
      this.fail(
        'book',
        slug,
        this.drift(`a marketData frame for ${slug.slice(0, 100)} whose bids or offers are not {px: {value}, qty} levels with prices in [0, 1]`),
      );
      return;
    }
    const transactTime = typeof data.transactTime === 'string' ? data.transactTime : undefined;
    const raw: RawBook = { bids, offers, ...(transactTime === undefined ? {} : { transactTime }) };
    this.publish('book', slug, (side) => this.viewOf(raw, slug, side), true);
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
    if (!this.watched('trade', slug)) return;
    const price = amountOf(trade.price);
    const amount = amountOf(trade.quantity);
    if (price === undefined || price < 0 || price > 1 || amount === undefined || !(amount > 0)) {
      this.fail('trade', slug, this.drift(`a trade for ${slug.slice(0, 100)} without a price in [0, 1] and a quantity`));
      return;
    }
    const timestamp = toEpochMs(trade.tradeTime as string | number | undefined) ?? this.options.clock.now();
    const intent = String((trade.taker as { intent?: unknown } | undefined)?.intent ?? '');
    const match = /^ORDER_INTENT_(BUY|SELL)_(LONG|SHORT)$/.exec(intent);
    // Buying long and selling short both take the long side.
    const takerLong = match ? (match[1] === 'BUY') === (match[2] === 'LONG') : undefined;
    const id = String(trade.id ?? trade.tradeId ?? `${slug}-${String(trade.tradeTime)}-${price}-${amount}`);
    this.publish('trade', slug, (side) => [
      {
        id,
        timestamp,
        price: side === 'long' ? price : complement(price),
        amount,
        side: takerLong === undefined ? 'unknown' : takerLong === (side === 'long') ? 'buy' : 'sell',
        outcomeId: outcomeIdOf(slug, side),
      },
    ]);
  }

  /** The venue refused a subscription: an unknown market ends its watches; anything else is retried on reconnect. */
  private answered(requestId: unknown, error: unknown): void {
    const text = String(typeof error === 'object' && error !== null ? ((error as { message?: unknown }).message ?? JSON.stringify(error)) : error);
    const request = typeof requestId === 'string' ? this.requests.get(requestId) : undefined;
    if (!request) {
      this.broadcast(this.venueError(text));
      return;
    }
    this.requests.delete(requestId as string);
    this.refused(request.kind, [request.slug], this.refusal(text, [request.slug], /not found|unknown|does not exist|invalid market/i.test(text)));
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
