import { PredgateError, RedialingSocket, Subscriptions, createFeed, isUnreachable, normalizeOrderBook, refusedHandshake, toNumber } from '@predgate/core';
import type { Clock, Credentials, Feed, FeedListener, OrderBook, OrderLevel, Trade } from '@predgate/core';
import { createSigner, signedPath } from '../auth/signer.js';
import { outcomeIdOf, outcomeOf } from '../ids.js';
import type { ContractSide } from '../ids.js';
import { complement, roundPrice } from '../normalize/numbers.js';

export interface KalshiStreamOptions {
  /**
   * Websocket roots serving the same channels (`wss://…/trade-api/ws/v2`), the
   * recommended one first: a host that does not resolve or accept the
   * connection hands the redial to the next, which is kept while it works.
   */
  urls: readonly string[];
  venue: string;
  /** The handshake is signed even for public channels: the caller's key, else the operator's stream key. */
  credentials: Credentials | undefined;
  clock: Clock;
  pingIntervalMs: number;
  backoff: { initialMs: number; maxMs: number };
}

type Channel = 'orderbook_delta' | 'trade';
const channels: Channel[] = ['orderbook_delta', 'trade'];

interface Watcher<T> {
  side: ContractSide;
  emit: FeedListener<T>;
}

/** One market's book as the socket leaves it: bids to buy YES and bids to buy NO, by price. */
interface Book {
  yes: Map<number, number>;
  no: Map<number, number>;
  known: boolean;
  /** Venue time of the last change (the delta's `ts`), else the receive time. */
  timestamp: number;
  watchers: Set<Watcher<OrderBook>>;
}

/**
 * Kalshi's websocket for one adapter instance: one signed connection, the
 * `orderbook_delta` channel (a snapshot, then deltas with a sequence number
 * per subscription) and the `trade` channel. Each subscribe command names only
 * the tickers not yet subscribed; a ticker nobody watches is taken out of its
 * subscription; the connection closes with the last ticker. A dropped
 * connection is redialled and every ticker subscribed again; a sequence gap
 * resubscribes its tickers for a fresh snapshot. YES and NO outcomes of a
 * market share its one subscription.
 */
export class KalshiStream {
  private readonly socket: RedialingSocket;
  private nextId = 1;
  private readonly books = new Map<string, Book>();
  private readonly prints = new Map<string, Set<Watcher<Trade[]>>>();
  /** Tickers by channel. */
  private readonly subscriptions: Subscriptions<Channel>;
  private readonly commands = new Map<number, { channel: Channel; tickers: string[] }>();
  /** The venue's subscriptions on the open connection by id (`sid`), with the tickers each still carries. */
  private readonly sids = new Map<number, { channel: Channel; tickers: Set<string>; seq?: number }>();
  /** The root dialled: it moves on when a host cannot be reached. */
  private host = 0;

  constructor(private readonly options: KalshiStreamOptions) {
    this.subscriptions = new Subscriptions({
      channels,
      canSend: () => this.socket.isOpen,
      subscribe: (channel, tickers) => {
        const id = this.command('subscribe', { channels: [channel], market_tickers: tickers });
        this.commands.set(id, { channel, tickers });
      },
      unsubscribe: (channel, ticker) => this.takeOut(channel, ticker),
      onIdle: () => void this.socket.close(),
    });
    this.socket = new RedialingSocket({
      venue: options.venue,
      dial: () => {
        const url = options.urls[this.host % options.urls.length]!;
        return { url, headers: createSigner(options.credentials, options.venue).headers('GET', signedPath(url), options.clock.now()) };
      },
      pingIntervalMs: options.pingIntervalMs,
      backoff: options.backoff,
      wanted: () => !this.subscriptions.idle,
      onOpen: () => this.subscriptions.scheduleFlush(),
      onMessage: (text) => this.receive(text),
      onDown: () => this.resetConnectionState(),
      onDrop: (error) => this.broadcast(error),
      onRefused: (status) => refusedHandshake(options.venue, status),
      // Nothing reached a host that does not resolve or connect: the redial goes to the next one.
      onError: (error) => {
        if (isUnreachable(error)) this.host = (this.host + 1) % options.urls.length;
      },
    });
  }

  /** Tickers wanted now, by channel (for tests and status). */
  get tickers(): Record<Channel, string[]> {
    return { orderbook_delta: this.subscriptions.keys('orderbook_delta'), trade: this.subscriptions.keys('trade') };
  }

  watchOrderBook(outcomeId: string): Feed<OrderBook> {
    return createFeed((emit) => {
      const { ticker, side } = outcomeOf(outcomeId);
      let book = this.books.get(ticker);
      if (!book) {
        book = { yes: new Map(), no: new Map(), known: false, timestamp: 0, watchers: new Set() };
        this.books.set(ticker, book);
      }
      const watcher: Watcher<OrderBook> = { side, emit };
      book.watchers.add(watcher);
      if (book.known) {
        const view = viewOf(book, ticker, side);
        queueMicrotask(() => emit.data(view));
      }
      this.want('orderbook_delta', ticker, emit);
      return () => {
        book.watchers.delete(watcher);
        // A watcher from before close() finds its ticker's book already replaced: the new one is not its to end.
        if (book.watchers.size === 0 && this.books.get(ticker) === book) {
          this.books.delete(ticker);
          this.subscriptions.unwant('orderbook_delta', ticker);
        }
      };
    });
  }

  watchTrades(outcomeId: string): Feed<Trade[]> {
    return createFeed((emit) => {
      const { ticker, side } = outcomeOf(outcomeId);
      let watchers = this.prints.get(ticker);
      if (!watchers) {
        watchers = new Set();
        this.prints.set(ticker, watchers);
      }
      const watcher: Watcher<Trade[]> = { side, emit };
      watchers.add(watcher);
      this.want('trade', ticker, emit);
      return () => {
        watchers.delete(watcher);
        if (watchers.size === 0 && this.prints.get(ticker) === watchers) {
          this.prints.delete(ticker);
          this.subscriptions.unwant('trade', ticker);
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

  private want(channel: Channel, ticker: string, emit: FeedListener<never>): void {
    if (this.subscriptions.wants(channel, ticker)) return;
    try {
      // Fails before any connection when the handshake cannot be signed.
      if (!this.socket.active) createSigner(this.options.credentials, this.options.venue);
    } catch (error) {
      queueMicrotask(() =>
        emit.error(
          new PredgateError(
            'AUTHENTICATION_ERROR',
            `${this.options.venue}: its websocket needs an API key, even for public channels: send credentials with the subscription (apiKey, privateKey) or configure the adapter's stream.credentials`,
            {
              exchange: this.options.venue,
              retryable: false,
              cause: error,
            },
          ),
        ),
      );
      return;
    }
    this.subscriptions.want(channel, ticker);
    this.socket.connect();
  }

  /** Kalshi unsubscribes by subscription id: a ticker sharing its subscription with others is deleted from it instead. */
  private takeOut(channel: Channel, ticker: string): void {
    for (const [sid, subscription] of this.sids) {
      if (subscription.channel !== channel || !subscription.tickers.delete(ticker)) continue;
      if (subscription.tickers.size === 0) {
        this.sids.delete(sid);
        this.command('unsubscribe', { sids: [sid] });
      } else {
        this.command('update_subscription', { sids: [sid], market_tickers: [ticker], action: 'delete_markets' });
      }
    }
  }

  private resetConnectionState(): void {
    this.subscriptions.reset();
    this.commands.clear();
    this.sids.clear();
    for (const book of this.books.values()) book.known = false;
  }

  private command(cmd: string, params: Record<string, unknown>): number {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, cmd, params }));
    return id;
  }

  private receive(text: string): void {
    let message: { id?: number; type?: string; sid?: number; seq?: number; msg?: Record<string, unknown> };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      this.broadcast(this.drift('a frame that is not JSON'));
      return;
    }
    const msg = message.msg ?? {};
    switch (message.type) {
      case 'subscribed':
        this.subscribed(message.id, Number(msg.sid), msg.channel as Channel);
        return;
      case 'orderbook_snapshot':
        if (this.inSequence(message.sid, message.seq)) this.snapshot(msg);
        return;
      case 'orderbook_delta':
        if (this.inSequence(message.sid, message.seq)) this.delta(msg);
        return;
      case 'trade':
        this.trade(msg);
        return;
      case 'error':
        this.refused(message.id, msg);
        return;
      case 'ok':
      case 'unsubscribed':
      case 'list_subscriptions':
      case 'market_lifecycle_v2':
      case 'ticker':
      case 'ticker_v2':
        return;
      default:
        this.broadcast(this.drift(`a message of type "${String(message.type).slice(0, 40)}"`));
    }
  }

  private subscribed(id: number | undefined, sid: number, channel: Channel): void {
    const command = id === undefined ? undefined : this.commands.get(id);
    if (!command || !Number.isFinite(sid)) return;
    this.commands.delete(id!);
    const tickers = new Set(command.tickers.filter((ticker) => this.subscriptions.wants(command.channel, ticker)));
    if (tickers.size === 0) {
      this.command('unsubscribe', { sids: [sid] });
      return;
    }
    this.sids.set(sid, { channel: channel ?? command.channel, tickers });
  }

  /** True when a message follows the one before on its subscription; a gap resubscribes for a fresh snapshot. */
  private inSequence(sid: number | undefined, seq: number | undefined): boolean {
    if (sid === undefined || seq === undefined) return true;
    const subscription = this.sids.get(sid);
    if (!subscription) return true;
    const expected = subscription.seq === undefined ? seq : subscription.seq + 1;
    if (seq === expected) {
      subscription.seq = seq;
      return true;
    }
    this.sids.delete(sid);
    this.command('unsubscribe', { sids: [sid] });
    for (const ticker of subscription.tickers) {
      this.subscriptions.forget(subscription.channel, ticker);
      const book = this.books.get(ticker);
      if (book) book.known = false;
      for (const watcher of book?.watchers ?? []) {
        watcher.emit.error(
          new PredgateError(
            'NETWORK_ERROR',
            `${this.options.venue}: missed book updates for ${ticker} (sequence ${expected} expected, ${seq} came); resubscribing`,
            { exchange: this.options.venue, retryable: true },
          ),
        );
      }
    }
    this.subscriptions.scheduleFlush();
    return false;
  }

  private snapshot(msg: Record<string, unknown>): void {
    const book = this.books.get(String(msg.market_ticker));
    if (!book) return;
    book.yes = ladder(msg, 'yes');
    book.no = ladder(msg, 'no');
    book.known = true;
    book.timestamp = this.options.clock.now();
    this.deliver(String(msg.market_ticker), book);
  }

  private delta(msg: Record<string, unknown>): void {
    const ticker = String(msg.market_ticker);
    const book = this.books.get(ticker);
    if (!book?.known) return;
    const price = toNumber(msg.price_dollars) ?? centsOf(msg.price);
    const delta = toNumber(msg.delta_fp) ?? toNumber(msg.delta);
    const side = msg.side;
    if (price === undefined || delta === undefined || (side !== 'yes' && side !== 'no')) {
      this.broadcast(this.drift('an orderbook_delta without price, delta or side'));
      return;
    }
    const levels = book[side];
    const size = Math.round(((levels.get(price) ?? 0) + delta) * 100) / 100;
    if (size > 0) levels.set(price, size);
    else levels.delete(price);
    book.timestamp = timeOf(msg.ts) ?? this.options.clock.now();
    this.deliver(ticker, book);
  }

  private trade(msg: Record<string, unknown>): void {
    const ticker = String(msg.market_ticker);
    const watchers = this.prints.get(ticker);
    if (!watchers) return;
    const yesPrice = toNumber(msg.yes_price_dollars) ?? centsOf(msg.yes_price);
    const amount = toNumber(msg.count_fp) ?? toNumber(msg.count);
    if (yesPrice === undefined || amount === undefined || !(amount > 0)) {
      this.broadcast(this.drift('a trade without price or count'));
      return;
    }
    const noPrice = toNumber(msg.no_price_dollars) ?? centsOf(msg.no_price) ?? complement(yesPrice);
    const taker = msg.taker_outcome_side ?? msg.taker_side;
    const timestamp = timeOf(msg.ts) ?? this.options.clock.now();
    for (const watcher of watchers) {
      watcher.emit.data([
        {
          id: String(msg.trade_id ?? `${ticker}-${timestamp}`),
          timestamp,
          price: roundPrice(watcher.side === 'yes' ? yesPrice : noPrice),
          amount,
          side: taker === watcher.side ? 'buy' : taker === 'yes' || taker === 'no' ? 'sell' : 'unknown',
          outcomeId: outcomeIdOf(ticker, watcher.side),
        },
      ]);
    }
  }

  /**
   * The venue refused a command: a bad ticker ends its watches with OUTCOME_NOT_FOUND (what is watched is an
   * outcome, `<ticker>` or `<ticker>-NO`); anything else is reported and retried on reconnect.
   */
  private refused(id: number | undefined, msg: Record<string, unknown>): void {
    const command = id === undefined ? undefined : this.commands.get(id);
    const text = String(msg.msg ?? 'error').slice(0, 200);
    const { venue } = this.options;
    if (!command) {
      this.broadcast(
        new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} websocket: ${text}`, { exchange: venue, retryable: true, detail: { venueCode: msg.code } }),
      );
      return;
    }
    this.commands.delete(id!);
    const notFound = msg.code === 16 || /market|ticker/i.test(text);
    const error = notFound
      ? new PredgateError('OUTCOME_NOT_FOUND', `${venue}: ${text} (${command.tickers.join(', ')})`, {
          exchange: venue,
          retryable: false,
          detail: { venueCode: msg.code, tickers: command.tickers },
        })
      : new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} refused the subscription: ${text}`, {
          exchange: venue,
          retryable: msg.code !== 9,
          detail: { venueCode: msg.code },
        });
    for (const ticker of command.tickers) {
      this.subscriptions.forget(command.channel, ticker);
      const watchers = command.channel === 'trade' ? this.prints.get(ticker) : this.books.get(ticker)?.watchers;
      for (const watcher of watchers ?? []) watcher.emit.error(error);
    }
  }

  private deliver(ticker: string, book: Book): void {
    for (const watcher of book.watchers) watcher.emit.data(viewOf(book, ticker, watcher.side));
  }

  private drift(what: string): PredgateError {
    const { venue } = this.options;
    return new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} websocket sent ${what}: not read`, { exchange: venue, retryable: true });
  }

  private broadcast(error: PredgateError): void {
    for (const book of this.books.values()) for (const watcher of book.watchers) watcher.emit.error(error);
    for (const watchers of this.prints.values()) for (const watcher of watchers) watcher.emit.error(error);
  }
}

/** A snapshot ladder: `<side>_dollars_fp` (dollar and count strings), else `<side>_dollars`, else legacy cents. */
function ladder(msg: Record<string, unknown>, side: ContractSide): Map<number, number> {
  const levels = new Map<number, number>();
  const dollars = msg[`${side}_dollars_fp`] ?? msg[`${side}_dollars`];
  const cents = msg[side];
  const rows = Array.isArray(dollars) ? dollars : Array.isArray(cents) ? cents : [];
  for (const row of rows as unknown[]) {
    if (!Array.isArray(row)) continue;
    const price = Array.isArray(dollars) ? toNumber(row[0]) : centsOf(row[0]);
    const size = toNumber(row[1]);
    if (price !== undefined && size !== undefined && size > 0) levels.set(roundPrice(price), size);
  }
  return levels;
}

/** One outcome's view of the market's book: its own bids, and the other side's bids mirrored as asks. */
function viewOf(book: Book, ticker: string, side: ContractSide): OrderBook {
  const other = side === 'yes' ? book.no : book.yes;
  const levels = (entries: Map<number, number>, mirror: boolean): OrderLevel[] =>
    [...entries].map(([price, size]) => ({ price: mirror ? complement(price) : price, size }));
  return normalizeOrderBook({
    bids: levels(book[side], false),
    asks: levels(other, true),
    timestamp: book.timestamp,
    isNegRisk: false,
    sourceMetadata: { ticker, side, source: 'stream' },
  });
}

function centsOf(value: unknown): number | undefined {
  const cents = toNumber(value);
  return cents === undefined ? undefined : roundPrice(cents / 100);
}

/** The socket's `ts`: Unix seconds (or an RFC 3339 string), as milliseconds. */
function timeOf(value: unknown): number | undefined {
  if (typeof value === 'string' && Number.isNaN(Number(value))) {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  const seconds = toNumber(value);
  if (seconds === undefined) return undefined;
  return seconds < 1e11 ? seconds * 1000 : seconds;
}
