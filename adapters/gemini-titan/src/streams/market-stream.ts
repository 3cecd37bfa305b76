import { PredgateError, RedialingSocket, Subscriptions, createFeed, invertBinaryBook, normalizeOrderBook, roundTo, toNumber } from '@predgate/core';
import type { Clock, Feed, FeedListener, OrderBook, OrderLevel, Trade } from '@predgate/core';
import { outcomeIdOf, sideOfOutcomeId } from '../normalize.js';

/** Gemini's partial-depth streams: the top N levels, whole, each second or each 100 ms. */
export const depthStreams = ['depth5', 'depth10', 'depth20', 'depth5@100ms', 'depth10@100ms', 'depth20@100ms'] as const;
export type DepthStream = (typeof depthStreams)[number];

export interface GeminiStreamOptions {
  /** `wss://ws.gemini.com`, or the sandbox's. */
  url: string;
  venue: string;
  clock: Clock;
  /** Which partial-depth stream books come from. */
  depth: DepthStream;
  pingIntervalMs: number;
  backoff: { initialMs: number; maxMs: number };
}

type Channel = 'book' | 'trade';
const channels: Channel[] = ['book', 'trade'];
type Side = 'yes' | 'no';

interface Watcher<T> {
  side: Side;
  emit: FeedListener<T>;
}

/** One contract's YES book as the venue last sent it, and who watches it. */
interface Book {
  symbol: string;
  yes: OrderBook | undefined;
  watchers: Set<Watcher<OrderBook>>;
}

/**
 * Gemini's market-data websocket for one adapter instance: one public
 * connection, the `<symbol>@depthN` stream (each message the top levels of
 * the contract's YES book, whole, so nothing is patched) and the
 * `<symbol>@trade` stream. A subscribe command names only the streams not yet
 * subscribed; a stream nobody watches is unsubscribed; the connection closes
 * with the last one. A dropped connection is redialled with backoff and every
 * stream subscribed again. YES and NO of a contract share its one stream: the
 * NO book is the YES book mirrored, NO prints are YES prints at 1 − p with
 * the taker's side reversed, as `fetchOrderBook` and `fetchTrades` read them.
 */
export class GeminiStream {
  private readonly socket: RedialingSocket;
  private nextId = 1;
  /** Keyed by upper-case symbol: the venue may answer in lower case. */
  private readonly books = new Map<string, Book>();
  private readonly prints = new Map<string, { symbol: string; watchers: Set<Watcher<Trade[]>> }>();
  /** Upper-case symbols by channel; each has its entry in `books` or `prints` while wanted. */
  private readonly subscriptions: Subscriptions<Channel>;
  private readonly commands = new Map<string, { channel: Channel; keys: string[] }>();

  constructor(private readonly options: GeminiStreamOptions) {
    this.subscriptions = new Subscriptions({
      channels,
      canSend: () => this.socket.isOpen,
      subscribe: (channel, keys) => {
        const id = this.command(
          'subscribe',
          keys.map((key) => this.streamOf(channel, key)),
        );
        this.commands.set(id, { channel, keys });
      },
      unsubscribe: (channel, key) => this.command('unsubscribe', [this.streamOf(channel, key)]),
      onIdle: () => void this.socket.close(),
    });
    this.socket = new RedialingSocket({
      venue: options.venue,
      dial: () => ({ url: options.url }),
      pingIntervalMs: options.pingIntervalMs,
      backoff: options.backoff,
      wanted: () => !this.subscriptions.idle,
      onOpen: () => this.subscriptions.scheduleFlush(),
      onMessage: (text) => this.receive(text),
      onDown: () => this.resetConnectionState(),
      onDrop: (error) => this.broadcast(error),
    });
  }

  /** Symbols wanted now, by channel (for tests and status). */
  get symbols(): Record<Channel, string[]> {
    return {
      book: this.subscriptions.keys('book').map((key) => this.symbolOf('book', key)),
      trade: this.subscriptions.keys('trade').map((key) => this.symbolOf('trade', key)),
    };
  }

  watchOrderBook(outcomeId: string): Feed<OrderBook> {
    return createFeed((emit) => {
      const named = this.outcomeOf(outcomeId, emit);
      if (!named) return () => undefined;
      const key = named.symbol.toUpperCase();
      let book = this.books.get(key);
      if (!book) {
        book = { symbol: named.symbol, yes: undefined, watchers: new Set() };
        this.books.set(key, book);
      }
      const watcher: Watcher<OrderBook> = { side: named.side, emit };
      book.watchers.add(watcher);
      if (book.yes) {
        const view = viewOf(book.yes, named.side);
        queueMicrotask(() => emit.data(view));
      }
      this.want('book', key);
      return () => {
        book.watchers.delete(watcher);
        // A watcher from before close() finds its symbol's book already replaced: the new one is not its to end.
        if (book.watchers.size === 0 && this.books.get(key) === book) {
          // Unwanted first: its unsubscribe names the stream by the book's symbol.
          this.subscriptions.unwant('book', key);
          this.books.delete(key);
        }
      };
    });
  }

  watchTrades(outcomeId: string): Feed<Trade[]> {
    return createFeed((emit) => {
      const named = this.outcomeOf(outcomeId, emit);
      if (!named) return () => undefined;
      const key = named.symbol.toUpperCase();
      let entry = this.prints.get(key);
      if (!entry) {
        entry = { symbol: named.symbol, watchers: new Set() };
        this.prints.set(key, entry);
      }
      const watcher: Watcher<Trade[]> = { side: named.side, emit };
      entry.watchers.add(watcher);
      this.want('trade', key);
      return () => {
        entry.watchers.delete(watcher);
        if (entry.watchers.size === 0 && this.prints.get(key) === entry) {
          this.subscriptions.unwant('trade', key);
          this.prints.delete(key);
        }
      };
    });
  }

  async close(): Promise<void> {
    this.books.clear();
    this.prints.clear();
    this.subscriptions.clear();
    await this.socket.close();
  }

  private outcomeOf(outcomeId: string, emit: FeedListener<never>): { symbol: string; side: Side } | undefined {
    const named = sideOfOutcomeId(outcomeId);
    if (named && !/[\s@/]/.test(named.symbol)) return named;
    const shown = outcomeId.slice(0, 100);
    queueMicrotask(() =>
      emit.error(
        new PredgateError('OUTCOME_NOT_FOUND', `${this.options.venue}: ${shown} is not an outcome id (<instrument symbol>:yes or :no)`, {
          exchange: this.options.venue,
          retryable: false,
          detail: { outcomeId: shown },
        }),
      ),
    );
    return undefined;
  }

  /** The symbol as the first watcher of a wanted key spelled it. */
  private symbolOf(channel: Channel, key: string): string {
    return (channel === 'book' ? this.books : this.prints).get(key)!.symbol;
  }

  /** The venue's stream name for a wanted key. */
  private streamOf(channel: Channel, key: string): string {
    return `${this.symbolOf(channel, key)}@${channel === 'book' ? this.options.depth : 'trade'}`;
  }

  private want(channel: Channel, key: string): void {
    if (this.subscriptions.want(channel, key)) this.socket.connect();
  }

  private resetConnectionState(): void {
    this.subscriptions.reset();
    this.commands.clear();
    // A book from before a drop is not current: the next subscription's first message replaces it.
    for (const book of this.books.values()) book.yes = undefined;
  }

  private command(method: string, params: string[]): string {
    const id = String(this.nextId++);
    this.socket.send(JSON.stringify({ id, method, params }));
    return id;
  }

  private receive(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.broadcast(this.drift('a frame that is not JSON'));
      return;
    }
    if (!isRecord(message)) {
      this.broadcast(this.drift('a message that is not an object'));
      return;
    }
    // Command answers: `{id, status: 200}`, or another status with an error.
    if (message.id !== undefined && (message.status !== undefined || message.error !== undefined || 'result' in message)) {
      this.answered(String(message.id), message);
      return;
    }
    if ('lastUpdateId' in message || 'bids' in message || 'asks' in message) {
      this.book(message);
      return;
    }
    if (message.e === 'depthUpdate') {
      // A differential stream is never asked for; reading it as a whole book would be wrong.
      return;
    }
    if ('t' in message && 'p' in message) {
      this.trade(message);
      return;
    }
    // Other streams (bookTicker, account events) are none of these feeds' business.
  }

  private answered(id: string, message: Record<string, unknown>): void {
    const command = this.commands.get(id);
    this.commands.delete(id);
    const status = toNumber(message.status);
    if (message.error === undefined && (status === undefined || status === 200)) return;
    const error = isRecord(message.error) ? message.error : {};
    const text = String(error.msg ?? error.message ?? message.error ?? `status ${status}`).slice(0, 200);
    const { venue } = this.options;
    if (!command) {
      this.broadcast(new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} websocket: ${text}`, { exchange: venue, retryable: true }));
      return;
    }
    const unknown = /symbol|instrument|stream/i.test(text);
    const failure = unknown
      ? new PredgateError('MARKET_NOT_FOUND', `${venue}: ${text} (${command.keys.join(', ')})`, { exchange: venue, retryable: false })
      : new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} refused the subscription: ${text}`, { exchange: venue, retryable: true });
    for (const key of command.keys) {
      this.subscriptions.forget(command.channel, key);
      const watchers = command.channel === 'trade' ? this.prints.get(key)?.watchers : this.books.get(key)?.watchers;
      for (const watcher of watchers ?? []) watcher.emit.error(failure);
    }
  }

  private book(message: Record<string, unknown>): void {
    const symbol = typeof message.symbol === 'string' ? message.symbol : typeof message.s === 'string' ? message.s : undefined;
    if (symbol === undefined) {
      this.broadcast(this.drift('a depth message without a symbol'));
      return;
    }
    const book = this.books.get(symbol.toUpperCase());
    if (!book) return;
    const bids = ladder(message.bids);
    const asks = ladder(message.asks);
    if (!bids || !asks) {
      book.yes = undefined;
      const error = this.drift(`a depth message for ${book.symbol} with unreadable levels`);
      for (const watcher of book.watchers) watcher.emit.error(error);
      return;
    }
    book.yes = normalizeOrderBook({
      bids,
      asks,
      timestamp: nanosToMs(message.E) ?? this.options.clock.now(),
      isNegRisk: false,
      sourceMetadata: { symbol: book.symbol, source: 'stream', ...(message.lastUpdateId === undefined ? {} : { lastUpdateId: message.lastUpdateId }) },
    });
    for (const watcher of book.watchers) watcher.emit.data(viewOf(book.yes, watcher.side));
  }

  private trade(message: Record<string, unknown>): void {
    const symbol = typeof message.s === 'string' ? message.s : typeof message.symbol === 'string' ? message.symbol : undefined;
    if (symbol === undefined) {
      this.broadcast(this.drift('a trade without a symbol'));
      return;
    }
    const entry = this.prints.get(symbol.toUpperCase());
    if (!entry) return;
    const price = toNumber(message.p);
    const amount = toNumber(message.q);
    if (price === undefined || amount === undefined || !(price >= 0 && price <= 1) || !(amount > 0) || typeof message.m !== 'boolean') {
      const error = this.drift(`a trade of ${entry.symbol} without price, quantity or maker flag`);
      for (const watcher of entry.watchers) watcher.emit.error(error);
      return;
    }
    const timestamp = nanosToMs(message.E) ?? this.options.clock.now();
    // `m`: the buyer was the maker, so the taker sold YES.
    const yesSide = message.m ? 'sell' : 'buy';
    for (const watcher of entry.watchers) {
      const yes = watcher.side === 'yes';
      watcher.emit.data([
        {
          id: String(message.t ?? `${entry.symbol}-${timestamp}`),
          timestamp,
          price: yes ? price : roundTo(1 - price, 10),
          amount,
          side: yes ? yesSide : yesSide === 'buy' ? 'sell' : 'buy',
          outcomeId: outcomeIdOf(entry.symbol, watcher.side),
        },
      ]);
    }
  }

  private drift(what: string): PredgateError {
    const { venue } = this.options;
    return new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} websocket sent ${what}: not read`, { exchange: venue, retryable: true });
  }

  private broadcast(error: PredgateError): void {
    for (const book of this.books.values()) for (const watcher of book.watchers) watcher.emit.error(error);
    for (const entry of this.prints.values()) for (const watcher of entry.watchers) watcher.emit.error(error);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `[[price, quantity]]` with prices in 0..1; undefined when any level is unreadable. Zero quantities are dropped. */
function ladder(rows: unknown): OrderLevel[] | undefined {
  if (!Array.isArray(rows)) return undefined;
  const levels: OrderLevel[] = [];
  for (const row of rows as unknown[]) {
    if (!Array.isArray(row)) return undefined;
    const price = toNumber(row[0]);
    const size = toNumber(row[1]);
    if (price === undefined || size === undefined || !(price >= 0 && price <= 1) || !(size >= 0)) return undefined;
    if (size > 0) levels.push({ price, size });
  }
  return levels;
}

function viewOf(yes: OrderBook, side: Side): OrderBook {
  return side === 'yes' ? yes : invertBinaryBook(yes);
}

/** The venue's event time `E` (nanoseconds) as milliseconds. */
function nanosToMs(value: unknown): number | undefined {
  const nanos = toNumber(value);
  if (nanos === undefined || !(nanos > 0)) return undefined;
  return nanos > 1e17 ? Math.floor(nanos / 1e6) : nanos > 1e14 ? Math.floor(nanos / 1e3) : nanos;
}
