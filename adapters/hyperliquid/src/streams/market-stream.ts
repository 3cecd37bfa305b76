import { PredgateError, RedialingSocket, Subscriptions, createFeed, normalizeOrderBook, toNumber } from '@predgate/core';
import type { Clock, Feed, FeedListener, OrderBook, OrderLevel, Trade } from '@predgate/core';
import { assetIdOf, coinOf, sideOfAssetId, sideOfCoin } from '../ids.js';

export interface HyperliquidStreamOptions {
  /** `wss://api.hyperliquid.xyz/ws`, or the testnet's. */
  url: string;
  venue: string;
  clock: Clock;
  /** The venue drops a connection that sent nothing for a minute: `{"method":"ping"}` this often. */
  pingIntervalMs: number;
  backoff: { initialMs: number; maxMs: number };
}

type Channel = 'l2Book' | 'trades';
const channels: Channel[] = ['l2Book', 'trades'];

/** One side coin's watchers and its last book (every `l2Book` message is the whole book). */
interface Book {
  last: OrderBook | undefined;
  watchers: Set<FeedListener<OrderBook>>;
}

/**
 * Hyperliquid's public websocket for one adapter instance: one connection,
 * the `l2Book` channel (each message a full book of one side coin `#<10 ×
 * outcome + side>`, so nothing is patched and nothing can drift) and the
 * `trades` channel. A subscribe message goes out per coin not yet subscribed;
 * a coin nobody watches is unsubscribed; the connection closes with the last
 * coin. A dropped connection is redialled with backoff and every coin
 * subscribed again. Each side of an outcome is its own coin with its own book,
 * as `fetchOrderBook` reads it.
 */
export class HyperliquidStream {
  private readonly socket: RedialingSocket;
  private readonly books = new Map<string, Book>();
  private readonly prints = new Map<string, Set<FeedListener<Trade[]>>>();
  /** Coins by channel; the venue takes one coin per subscribe message. */
  private readonly subscriptions: Subscriptions<Channel>;

  constructor(private readonly options: HyperliquidStreamOptions) {
    this.subscriptions = new Subscriptions({
      channels,
      canSend: () => this.socket.isOpen,
      subscribe: (channel, coins) => {
        for (const coin of coins) this.send({ method: 'subscribe', subscription: { type: channel, coin } });
      },
      unsubscribe: (channel, coin) => this.send({ method: 'unsubscribe', subscription: { type: channel, coin } }),
      onIdle: () => void this.socket.close(),
    });
    this.socket = new RedialingSocket({
      venue: options.venue,
      dial: () => ({ url: options.url }),
      pingIntervalMs: options.pingIntervalMs,
      keepalive: () => this.send({ method: 'ping' }),
      backoff: options.backoff,
      wanted: () => !this.subscriptions.idle,
      onOpen: () => this.subscriptions.scheduleFlush(),
      onMessage: (text) => this.receive(text),
      onDown: () => this.resetConnectionState(),
      onDrop: (error) => this.broadcast(error),
    });
  }

  /** Coins wanted now, by channel (for tests and status). */
  get coins(): Record<Channel, string[]> {
    return { l2Book: this.subscriptions.keys('l2Book'), trades: this.subscriptions.keys('trades') };
  }

  watchOrderBook(outcomeId: string): Feed<OrderBook> {
    return createFeed((emit) => {
      const coin = this.coinOf(outcomeId, emit);
      if (coin === undefined) return () => undefined;
      let book = this.books.get(coin);
      if (!book) {
        book = { last: undefined, watchers: new Set() };
        this.books.set(coin, book);
      }
      book.watchers.add(emit);
      // A second watcher of a coin already known starts from its current book.
      if (book.last) {
        const last = book.last;
        queueMicrotask(() => emit.data(last));
      }
      this.want('l2Book', coin);
      return () => {
        book.watchers.delete(emit);
        // A watcher from before close() finds its coin's book already replaced: the new one is not its to end.
        if (book.watchers.size === 0 && this.books.get(coin) === book) {
          this.books.delete(coin);
          this.subscriptions.unwant('l2Book', coin);
        }
      };
    });
  }

  watchTrades(outcomeId: string): Feed<Trade[]> {
    return createFeed((emit) => {
      const coin = this.coinOf(outcomeId, emit);
      if (coin === undefined) return () => undefined;
      let watchers = this.prints.get(coin);
      if (!watchers) {
        watchers = new Set();
        this.prints.set(coin, watchers);
      }
      watchers.add(emit);
      this.want('trades', coin);
      return () => {
        watchers.delete(emit);
        if (watchers.size === 0 && this.prints.get(coin) === watchers) {
          this.prints.delete(coin);
          this.subscriptions.unwant('trades', coin);
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

  /** The side coin an outcome (asset) id names; anything else ends the feed with OUTCOME_NOT_FOUND. */
  private coinOf(outcomeId: string, emit: FeedListener<never>): string | undefined {
    const side = sideOfAssetId(outcomeId);
    if (side) return coinOf(side);
    const shown = outcomeId.slice(0, 100);
    queueMicrotask(() =>
      emit.error(
        new PredgateError('OUTCOME_NOT_FOUND', `${this.options.venue}: ${shown} is not an outcome id (an asset id such as 100017310)`, {
          exchange: this.options.venue,
          retryable: false,
          detail: { outcomeId: shown },
        }),
      ),
    );
    return undefined;
  }

  private want(channel: Channel, coin: string): void {
    if (this.subscriptions.want(channel, coin)) this.socket.connect();
  }

  private resetConnectionState(): void {
    this.subscriptions.reset();
    // A book from before a drop is not current: the next subscription's first message replaces it.
    for (const book of this.books.values()) book.last = undefined;
  }

  private send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  private receive(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.broadcast(this.drift('a frame that is not JSON'));
      return;
    }
    if (!isRecord(message) || typeof message.channel !== 'string') {
      this.broadcast(this.drift('a message without a channel'));
      return;
    }
    switch (message.channel) {
      case 'l2Book':
        this.book(message.data);
        return;
      case 'trades':
        this.trades(message.data);
        return;
      case 'error':
        this.refused(message.data);
        return;
      case 'subscriptionResponse':
      case 'pong':
        return;
      default:
        // Other channels (allMids, notification, …) are none of these feeds' business.
        return;
    }
  }

  private book(data: unknown): void {
    const coin = isRecord(data) && typeof data.coin === 'string' ? data.coin : undefined;
    if (coin === undefined) {
      this.broadcast(this.drift('an l2Book message without a coin'));
      return;
    }
    const book = this.books.get(coin);
    if (!book) return;
    const record = data as Record<string, unknown>;
    const levels = record.levels;
    const time = toNumber(record.time);
    const bids = Array.isArray(levels) && levels.length === 2 ? ladder(levels[0]) : undefined;
    const asks = Array.isArray(levels) && levels.length === 2 ? ladder(levels[1]) : undefined;
    if (!bids || !asks || time === undefined) {
      book.last = undefined;
      const error = this.drift(`an l2Book message for ${coin} without time or with unreadable levels`);
      for (const watcher of book.watchers) watcher.error(error);
      return;
    }
    const side = outcomeIdOfCoin(coin);
    book.last = normalizeOrderBook({
      bids,
      asks,
      timestamp: time,
      sourceMetadata: { coin, ...(side ? { outcomeId: side } : {}), source: 'stream' },
    });
    for (const watcher of book.watchers) watcher.data(book.last);
  }

  private trades(data: unknown): void {
    if (!Array.isArray(data)) {
      this.broadcast(this.drift('a trades message that is not a list'));
      return;
    }
    const byCoin = new Map<string, Trade[]>();
    for (const row of data as unknown[]) {
      const coin = isRecord(row) && typeof row.coin === 'string' ? row.coin : undefined;
      if (coin === undefined) {
        this.broadcast(this.drift('a trade without a coin'));
        return;
      }
      if (!this.prints.has(coin)) continue;
      const trade = row as Record<string, unknown>;
      const price = toNumber(trade.px);
      const amount = toNumber(trade.sz);
      const timestamp = toNumber(trade.time);
      if (price === undefined || amount === undefined || timestamp === undefined || !(amount > 0) || (trade.side !== 'A' && trade.side !== 'B')) {
        const error = this.drift(`a trade of ${coin} without price, size, time or side`);
        for (const watcher of this.prints.get(coin)!) watcher.error(error);
        return;
      }
      const outcomeId = outcomeIdOfCoin(coin) ?? coin;
      const list = byCoin.get(coin) ?? [];
      list.push({
        id: String(trade.tid ?? `${coin}-${timestamp}`),
        timestamp,
        price,
        amount,
        side: trade.side === 'B' ? 'buy' : 'sell',
        outcomeId,
      });
      byCoin.set(coin, list);
    }
    for (const [coin, trades] of byCoin) for (const watcher of this.prints.get(coin) ?? []) watcher.data(trades);
  }

  /** The venue answers a subscription it cannot serve with an `error` message quoting it. */
  private refused(data: unknown): void {
    const text = String(data ?? 'error').slice(0, 200);
    const { venue } = this.options;
    const error = new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} websocket: ${text}`, { exchange: venue, retryable: true });
    const named = [...this.books.keys(), ...this.prints.keys()].filter((coin) => text.includes(`"${coin}"`));
    if (named.length === 0) {
      this.broadcast(error);
      return;
    }
    for (const coin of new Set(named)) {
      for (const watcher of this.books.get(coin)?.watchers ?? []) watcher.error(error);
      for (const watcher of this.prints.get(coin) ?? []) watcher.error(error);
    }
  }

  private drift(what: string): PredgateError {
    const { venue } = this.options;
    return new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} websocket sent ${what}: not read`, { exchange: venue, retryable: true });
  }

  private broadcast(error: PredgateError): void {
    for (const book of this.books.values()) for (const watcher of book.watchers) watcher.error(error);
    for (const watchers of this.prints.values()) for (const watcher of watchers) watcher.error(error);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One side of an `l2Book` message (`[{px, sz, n}]`, best first); undefined when any level is unreadable. */
function ladder(rows: unknown): OrderLevel[] | undefined {
  if (!Array.isArray(rows)) return undefined;
  const levels: OrderLevel[] = [];
  for (const row of rows as unknown[]) {
    if (!isRecord(row)) return undefined;
    const price = toNumber(row.px);
    const size = toNumber(row.sz);
    if (price === undefined || size === undefined || !(price >= 0 && price <= 1) || !(size >= 0)) return undefined;
    if (size > 0) levels.push({ price, size });
  }
  return levels;
}

/** The outcome (asset) id of a side coin, as the adapter hands them out. */
function outcomeIdOfCoin(coin: string): string | undefined {
  const side = coin.startsWith('#') ? sideOfCoin(coin) : undefined;
  return side ? assetIdOf(side) : undefined;
}
