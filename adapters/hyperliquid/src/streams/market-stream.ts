import { VenueStream, createFeed, jsonObjectOf, normalizeOrderBook, streamedLevels, toNumber } from '@predgate/core';
import type { VenueStreamOptions, Feed, FeedListener, OrderBook, OrderLevel, Trade, RedialingSocket } from '@predgate/core';
import { assetIdOf, coinOf, sideOfAssetId, sideOfCoin } from '../ids.js';

/** `url`: `wss://api.hyperliquid.xyz/ws`, or the testnet's; the venue drops a connection that sent nothing for a minute, so `{"method":"ping"}` goes every `pingIntervalMs`. */
export type HyperliquidStreamOptions = VenueStreamOptions;

type Channel = 'l2Book' | 'trades';
const channels: Channel[] = ['l2Book', 'trades'];

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
export class HyperliquidStream extends VenueStream<{ l2Book: OrderBook; trades: Trade[] }, null> {
  protected readonly connection: RedialingSocket;

  constructor(private readonly options: HyperliquidStreamOptions) {
    super(options.venue, channels);
    this.connection = this.plainSocket({
      dial: () => ({ url: options.url }),
      pingIntervalMs: options.pingIntervalMs,
      keepalive: () => this.send({ method: 'ping' }),
      backoff: options.backoff,
      onMessage: (text) => this.receive(text),
      onDown: () => undefined,
    });
  }

  /** Coins wanted now, by channel (for tests and status). */
  get coins(): Record<Channel, string[]> {
    return { l2Book: this.subscriptions.keys('l2Book'), trades: this.subscriptions.keys('trades') };
  }

  watchOrderBook(outcomeId: string): Feed<OrderBook> {
    return createFeed((emit) => this.watchOutcome('l2Book', outcomeId, emit));
  }

  watchTrades(outcomeId: string): Feed<Trade[]> {
    return createFeed((emit) => this.watchOutcome('trades', outcomeId, emit));
  }

  /** The venue takes one coin per subscribe message. */
  protected subscribe(channel: Channel, coins: string[]): void {
    for (const coin of coins) this.send({ method: 'subscribe', subscription: { type: channel, coin } });
  }

  protected unsubscribe(channel: Channel, coin: string): void {
    this.send({ method: 'unsubscribe', subscription: { type: channel, coin } });
  }

  /** A watch of the side coin an outcome (asset) id names; anything else ends the feed with OUTCOME_NOT_FOUND. */
  private watchOutcome<C extends Channel>(channel: C, outcomeId: string, emit: FeedListener<{ l2Book: OrderBook; trades: Trade[] }[C]>): () => void {
    const side = sideOfAssetId(outcomeId);
    if (!side) return this.notAnOutcome(emit, outcomeId, 'an asset id such as 100017310');
    return this.watch(channel, coinOf(side), null, emit);
  }

  private send(message: unknown): void {
    this.connection.send(JSON.stringify(message));
  }

  private receive(text: string): void {
    const message = jsonObjectOf(text);
    if (!message || typeof message.channel !== 'string') {
      this.broadcast(this.drift(message ? 'a message without a channel' : 'a frame that is not JSON (or not an object)'));
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
        this.answered(message.data);
        return;
      default:
        // subscriptionResponse, pong and other channels (allMids, notification, …) are none of these feeds' business.
        return;
    }
  }

  private book(data: unknown): void {
    const coin = isRecord(data) && typeof data.coin === 'string' ? data.coin : undefined;
    if (coin === undefined) {
      this.broadcast(this.drift('an l2Book message without a coin'));
      return;
    }
    if (!this.watched('l2Book', coin)) return;
    const record = data as Record<string, unknown>;
    const levels = record.levels;
    const time = toNumber(record.time);
    const bids = Array.isArray(levels) && levels.length === 2 ? ladder(levels[0]) : undefined;
    const asks = Array.isArray(levels) && levels.length === 2 ? ladder(levels[1]) : undefined;
    if (!bids || !asks || time === undefined) {
      this.forgetLatest('l2Book', coin);
      this.fail('l2Book', coin, this.drift(`an l2Book message for ${coin} without time or with unreadable levels`));
      return;
    }
    const side = outcomeIdOfCoin(coin);
    const book = normalizeOrderBook({
      bids,
      asks,
      timestamp: time,
      sourceMetadata: { coin, ...(side ? { outcomeId: side } : {}), source: 'stream' },
    });
    this.publish('l2Book', coin, () => book, true);
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
      if (!this.watched('trades', coin)) continue;
      const trade = row as Record<string, unknown>;
      const price = toNumber(trade.px);
      const amount = toNumber(trade.sz);
      const timestamp = toNumber(trade.time);
      if (price === undefined || amount === undefined || timestamp === undefined || !(amount > 0) || (trade.side !== 'A' && trade.side !== 'B')) {
        this.fail('trades', coin, this.drift(`a trade of ${coin} without price, size, time or side`));
        return;
      }
      const list = byCoin.get(coin) ?? [];
      list.push({
        id: String(trade.tid ?? `${coin}-${timestamp}`),
        timestamp,
        price,
        amount,
        side: trade.side === 'B' ? 'buy' : 'sell',
        outcomeId: outcomeIdOfCoin(coin) ?? coin,
      });
      byCoin.set(coin, list);
    }
    for (const [coin, trades] of byCoin) this.publish('trades', coin, () => trades);
  }

  /** The venue answers a subscription it cannot serve with an `error` message quoting it: the coins it names are told, else everyone. */
  private answered(data: unknown): void {
    const error = this.venueError(String(data ?? 'error'));
    const text = error.message;
    let told = false;
    for (const channel of channels) {
      for (const coin of this.watchedKeys(channel).filter((key) => text.includes(`"${key}"`))) {
        this.fail(channel, coin, error);
        told = true;
      }
    }
    if (!told) this.broadcast(error);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One side of an `l2Book` message (`[{px, sz, n}]`, best first); undefined when any level is unreadable. */
function ladder(rows: unknown): OrderLevel[] | undefined {
  return streamedLevels(rows, (row) => (isRecord(row) ? [row.px, row.sz] : undefined));
}

/** The outcome (asset) id of a side coin, as the adapter hands them out. */
function outcomeIdOfCoin(coin: string): string | undefined {
  const side = coin.startsWith('#') ? sideOfCoin(coin) : undefined;
  return side ? assetIdOf(side) : undefined;
}
