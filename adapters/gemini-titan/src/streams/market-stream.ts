import { VenueStream, bookForSide, createFeed, normalizeOrderBook, roundTo, streamedLevels, toNumber } from '@predgate/core';
import type { VenueStreamOptions, Feed, FeedListener, OrderBook, OrderLevel, Trade, RedialingSocket } from '@predgate/core';
import { outcomeIdOf, sideOfOutcomeId } from '../ids.js';

/** Gemini's partial-depth streams: the top N levels, whole, each second or each 100 ms. */
export const depthStreams = ['depth5', 'depth10', 'depth20', 'depth5@100ms', 'depth10@100ms', 'depth20@100ms'] as const;
export type DepthStream = (typeof depthStreams)[number];

/** `url`: `wss://ws.gemini.com`, or the sandbox's. */
export interface GeminiStreamOptions extends VenueStreamOptions {
  /** Which partial-depth stream books come from. */
  depth: DepthStream;
}

type Channel = 'book' | 'trade';
const channels: Channel[] = ['book', 'trade'];
type Side = 'yes' | 'no';

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
 * Keys are upper-case symbols (the venue may answer in lower case).
 */
export class GeminiStream extends VenueStream<{ book: OrderBook; trade: Trade[] }, Side> {
  protected readonly connection: RedialingSocket;
  private nextId = 1;
  /** The symbol as the first watcher of a key spelled it: the stream is named with it. */
  private readonly spellings = new Map<string, string>();
  private readonly commands = new Map<string, { channel: Channel; keys: string[] }>();

  constructor(private readonly options: GeminiStreamOptions) {
    super(options.venue, channels);
    this.connection = this.plainSocket({
      dial: () => ({ url: options.url }),
      pingIntervalMs: options.pingIntervalMs,
      backoff: options.backoff,
      onMessage: (text) => this.receive(text),
      onDown: () => this.commands.clear(),
    });
  }

  /** Symbols wanted now, by channel (for tests and status). */
  get symbols(): Record<Channel, string[]> {
    return {
      book: this.subscriptions.keys('book').map((key) => this.spellings.get(key)!),
      trade: this.subscriptions.keys('trade').map((key) => this.spellings.get(key)!),
    };
  }

  override async close(): Promise<void> {
    this.spellings.clear();
    await super.close();
  }

  watchOrderBook(outcomeId: string): Feed<OrderBook> {
    return createFeed((emit) => this.watchOutcome('book', outcomeId, emit));
  }

  watchTrades(outcomeId: string): Feed<Trade[]> {
    return createFeed((emit) => this.watchOutcome('trade', outcomeId, emit));
  }

  protected subscribe(channel: Channel, keys: string[]): void {
    const id = this.command(
      'subscribe',
      keys.map((key) => this.streamOf(channel, key)),
    );
    this.commands.set(id, { channel, keys });
  }

  protected unsubscribe(channel: Channel, key: string): void {
    this.command('unsubscribe', [this.streamOf(channel, key)]);
  }

  private watchOutcome<C extends Channel>(channel: C, outcomeId: string, emit: FeedListener<{ book: OrderBook; trade: Trade[] }[C]>): () => void {
    const named = sideOfOutcomeId(outcomeId);
    if (!named || /[\s@/]/.test(named.symbol)) return this.notAnOutcome(emit, outcomeId, '<instrument symbol>:yes or :no');
    const key = named.symbol.toUpperCase();
    if (!this.watched('book', key) && !this.watched('trade', key)) this.spellings.set(key, named.symbol);
    const stop = this.watch(channel, key, named.side, emit);
    return () => {
      stop();
      if (!this.watched('book', key) && !this.watched('trade', key)) this.spellings.delete(key);
    };
  }

  /** The venue's stream name for a wanted key. */
  private streamOf(channel: Channel, key: string): string {
    return `${this.spellings.get(key) ?? key}@${channel === 'book' ? this.options.depth : 'trade'}`;
  }

  private command(method: string, params: string[]): string {
    const id = String(this.nextId++);
    this.connection.send(JSON.stringify({ id, method, params }));
    return id;
  }

  private receive(text: string): void {
    const message = this.messageOf(text);
    if (!message) return;
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
    const text = String(error.msg ?? error.message ?? message.error ?? `status ${status}`);
    if (!command) {
      this.broadcast(this.venueError(text));
      return;
    }
    const symbols = command.keys.map((key) => this.spellings.get(key) ?? key);
    this.refused(command.channel, command.keys, this.refusal(text, symbols, /symbol|instrument|stream/i.test(text)));
  }

  private book(message: Record<string, unknown>): void {
    const symbol = typeof message.symbol === 'string' ? message.symbol : typeof message.s === 'string' ? message.s : undefined;
    if (symbol === undefined) {
      this.broadcast(this.drift('a depth message without a symbol'));
      return;
    }
    const key = symbol.toUpperCase();
    if (!this.watched('book', key)) return;
    const named = this.spellings.get(key)!;
    const bids = ladder(message.bids);
    const asks = ladder(message.asks);
    if (!bids || !asks) {
      this.forgetLatest('book', key);
      this.fail('book', key, this.drift(`a depth message for ${named} with unreadable levels`));
      return;
    }
    const yes = normalizeOrderBook({
      bids,
      asks,
      timestamp: nanosToMs(message.E) ?? this.options.clock.now(),
      isNegRisk: false,
      sourceMetadata: { symbol: named, source: 'stream', ...(message.lastUpdateId === undefined ? {} : { lastUpdateId: message.lastUpdateId }) },
    });
    this.publish('book', key, (side) => bookForSide(yes, side), true);
  }

  private trade(message: Record<string, unknown>): void {
    const symbol = typeof message.s === 'string' ? message.s : typeof message.symbol === 'string' ? message.symbol : undefined;
    if (symbol === undefined) {
      this.broadcast(this.drift('a trade without a symbol'));
      return;
    }
    const key = symbol.toUpperCase();
    if (!this.watched('trade', key)) return;
    const named = this.spellings.get(key)!;
    const price = toNumber(message.p);
    const amount = toNumber(message.q);
    if (price === undefined || amount === undefined || !(price >= 0 && price <= 1) || !(amount > 0) || typeof message.m !== 'boolean') {
      this.fail('trade', key, this.drift(`a trade of ${named} without price, quantity or maker flag`));
      return;
    }
    const timestamp = nanosToMs(message.E) ?? this.options.clock.now();
    // `m`: the buyer was the maker, so the taker sold YES.
    const yesSide = message.m ? 'sell' : 'buy';
    this.publish('trade', key, (side) => {
      const yes = side === 'yes';
      return [
        {
          id: String(message.t ?? `${named}-${timestamp}`),
          timestamp,
          price: yes ? price : roundTo(1 - price, 10),
          amount,
          side: yes ? yesSide : yesSide === 'buy' ? 'sell' : 'buy',
          outcomeId: outcomeIdOf(named, side),
        },
      ];
    });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `[[price, quantity]]` with prices in 0..1; undefined when any level is unreadable. Zero quantities are dropped. */
function ladder(rows: unknown): OrderLevel[] | undefined {
  return streamedLevels(rows, (row) => (Array.isArray(row) ? [row[0], row[1]] : undefined));
}

/** The venue's event time `E` (nanoseconds) as milliseconds. */
function nanosToMs(value: unknown): number | undefined {
  const nanos = toNumber(value);
  if (nanos === undefined || !(nanos > 0)) return undefined;
  return nanos > 1e17 ? Math.floor(nanos / 1e6) : nanos > 1e14 ? Math.floor(nanos / 1e3) : nanos;
}
