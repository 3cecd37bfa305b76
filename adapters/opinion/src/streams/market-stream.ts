import { PredgateError, RedialingSocket, createFeed, isPredgateError, normalizeOrderBook, oncePerTurn, toNumber } from '@predgate/core';
import type { Clock, Feed, FeedListener, OrderBook, Trade } from '@predgate/core';

/** Where an outcome's book lives: its token, and the numeric market Opinion's channels are subscribed by. */
export interface OpinionOutcomeLocation {
  tokenId: string;
  marketId: string;
}

export interface OpinionStreamOptions {
  /** Websocket root (`wss://ws.opinion.trade`); the API key goes in its `apikey` query parameter. */
  url: string;
  venue: string;
  /** The caller's key, else the operator's read key: Opinion's websocket refuses a connection without one. */
  apiKey: string | undefined;
  clock: Clock;
  /** How often `{"action":"HEARTBEAT"}` is sent (Opinion asks for one about every 30 seconds). */
  heartbeatMs: number;
  backoff: { initialMs: number; maxMs: number };
  /** The token and market of an outcome id (a token id, or a market id meaning its YES token). */
  locate(outcomeId: string): Promise<OpinionOutcomeLocation>;
  /** A token's book over REST: the depth channel sends only changes, so each book is seeded from it. */
  snapshot(tokenId: string): Promise<OrderBook>;
}

type Channel = 'market.depth.diff' | 'market.last.trade';
const channels: Channel[] = ['market.depth.diff', 'market.last.trade'];

interface Diff {
  side: 'bids' | 'asks';
  price: number;
  size: number;
}

/** One token's book as the socket leaves it. */
interface Book {
  tokenId: string;
  marketId: string;
  bids: Map<number, number>;
  asks: Map<number, number>;
  /** Seeded from REST and kept since: only a known book is delivered. */
  known: boolean;
  /** The REST read in flight, by connection generation; diffs meanwhile wait in `pending`. */
  seeding: number | undefined;
  pending: Diff[];
  timestamp: number;
  metadata: Record<string, unknown>;
  watchers: Set<FeedListener<OrderBook>>;
}

interface Prints {
  marketId: string;
  watchers: Set<FeedListener<Trade[]>>;
}

/**
 * Opinion's websocket for one adapter instance: one connection
 * (`wss://ws.opinion.trade?apikey=…`), the `market.depth.diff` and
 * `market.last.trade` channels subscribed per numeric market id, so the YES
 * and NO tokens of a market share a subscription. The depth channel sends
 * absolute sizes per level and no snapshot: each watched token's book is read
 * over REST once the market is subscribed, the diffs that arrive meanwhile are
 * applied after it, and the book is delivered whole. A market nobody watches is
 * unsubscribed; the connection closes with the last one. A dropped connection
 * is redialled with backoff, every market subscribed again and every book read
 * again; a diff that cannot be read is reported and its market's books read
 * again, never delivered wrong.
 */
export class OpinionStream {
  private readonly socket: RedialingSocket;
  /** Bumped by each connection: a REST seed started on an older one is discarded. */
  private generation = 0;
  private readonly books = new Map<string, Book>();
  private readonly prints = new Map<string, Prints>();
  private readonly located = new Map<string, Promise<OpinionOutcomeLocation>>();
  /** Reconciles once the current turn is done, so watches added or stopped together are acted on together. */
  private readonly scheduleReconcile = oncePerTurn(() => this.reconcile());
  /** Markets subscribed on the open connection, by channel. */
  private readonly sent: Record<Channel, Set<string>> = { 'market.depth.diff': new Set(), 'market.last.trade': new Set() };

  constructor(private readonly options: OpinionStreamOptions) {
    this.socket = new RedialingSocket({
      venue: options.venue,
      dial: () => {
        const url = new URL(options.url);
        url.searchParams.set('apikey', options.apiKey ?? '');
        this.generation += 1;
        return { url: url.toString() };
      },
      pingIntervalMs: options.heartbeatMs,
      keepalive: () => this.send({ action: 'HEARTBEAT' }),
      backoff: options.backoff,
      wanted: () => channels.some((channel) => this.wanted()[channel].size > 0),
      onOpen: () => this.scheduleReconcile(),
      onMessage: (text) => this.receive(text),
      onDown: () => this.resetConnectionState(),
      onDrop: (error) => this.broadcast(error),
      onRefused: (status) =>
        status === 401 || status === 403
          ? new PredgateError('AUTHENTICATION_ERROR', `${options.venue} refused the websocket connection (${status}): check the API key`, {
              exchange: options.venue,
              retryable: false,
            })
          : undefined,
    });
  }

  /** Markets wanted now, by channel (for tests and status). */
  get markets(): Record<Channel, string[]> {
    const wanted = this.wanted();
    return { 'market.depth.diff': [...wanted['market.depth.diff']], 'market.last.trade': [...wanted['market.last.trade']] };
  }

  watchOrderBook(outcomeId: string): Feed<OrderBook> {
    return createFeed((emit) => {
      let book: Book | undefined;
      let ended = false;
      this.attach(
        outcomeId,
        emit,
        ({ tokenId, marketId }) => {
          if (ended) return;
          book = this.books.get(tokenId);
          if (!book) {
            book = {
              tokenId,
              marketId,
              bids: new Map(),
              asks: new Map(),
              known: false,
              seeding: undefined,
              pending: [],
              timestamp: 0,
              metadata: {},
              watchers: new Set(),
            };
            this.books.set(tokenId, book);
          }
          book.watchers.add(emit);
          if (book.known) {
            const view = viewOf(book);
            queueMicrotask(() => emit.data(view));
          }
          this.scheduleReconcile();
        },
        () => ended,
      );
      return () => {
        ended = true;
        if (!book) return;
        book.watchers.delete(emit);
        if (book.watchers.size === 0 && this.books.get(book.tokenId) === book) {
          this.books.delete(book.tokenId);
          this.scheduleReconcile();
        }
      };
    });
  }

  watchTrades(outcomeId: string): Feed<Trade[]> {
    return createFeed((emit) => {
      let entry: Prints | undefined;
      let tokenId = '';
      let ended = false;
      this.attach(
        outcomeId,
        emit,
        (location) => {
          if (ended) return;
          tokenId = location.tokenId;
          entry = this.prints.get(tokenId);
          if (!entry) {
            entry = { marketId: location.marketId, watchers: new Set() };
            this.prints.set(tokenId, entry);
          }
          entry.watchers.add(emit);
          this.scheduleReconcile();
        },
        () => ended,
      );
      return () => {
        ended = true;
        if (!entry) return;
        entry.watchers.delete(emit);
        if (entry.watchers.size === 0 && this.prints.get(tokenId) === entry) {
          this.prints.delete(tokenId);
          this.scheduleReconcile();
        }
      };
    });
  }

  async close(): Promise<void> {
    this.books.clear();
    this.prints.clear();
    await this.disconnect();
  }

  /**
   * Finds an outcome's token and market, then registers the watcher. A refusal
   * (an unknown id) ends the watch; a failure that may pass is reported as
   * retryable and the look-up tried again with backoff while the watch lasts.
   */
  private attach(outcomeId: string, emit: FeedListener<never>, register: (location: OpinionOutcomeLocation) => void, ended: () => boolean, attempt = 0): void {
    const { venue, backoff } = this.options;
    if (!this.options.apiKey) {
      queueMicrotask(() =>
        emit.error(
          new PredgateError(
            'AUTHENTICATION_ERROR',
            `${venue}: its websocket needs an API key: send an apiKey credential with the subscription or configure the adapter's apiKey`,
            { exchange: venue, retryable: false },
          ),
        ),
      );
      return;
    }
    let location = this.located.get(outcomeId);
    if (!location) {
      location = this.options.locate(outcomeId);
      this.located.set(outcomeId, location);
      // A failed look-up is not kept: the next watch asks again.
      location.catch(() => this.located.delete(outcomeId));
    }
    location.then(register, (error: unknown) => {
      if (ended()) return;
      const retryable = isPredgateError(error) ? error.retryable : true;
      const message = isPredgateError(error) ? error.message : `${venue}: could not find the market of ${outcomeId.slice(0, 80)}`;
      const code = isPredgateError(error) ? error.code : 'NETWORK_ERROR';
      emit.error(new PredgateError(code, message, { exchange: venue, retryable, cause: error }));
      if (!retryable) return;
      const delay = Math.min(backoff.maxMs, backoff.initialMs * 2 ** attempt);
      setTimeout(() => {
        if (!ended()) this.attach(outcomeId, emit, register, ended, attempt + 1);
      }, delay).unref();
    });
  }

  /** Markets wanted now, by channel. */
  private wanted(): Record<Channel, Set<string>> {
    return {
      'market.depth.diff': new Set([...this.books.values()].map((book) => book.marketId)),
      'market.last.trade': new Set([...this.prints.values()].map((entry) => entry.marketId)),
    };
  }

  /** Subscribes markets newly wanted, unsubscribes those nobody watches, seeds unknown books, closes when idle. */
  private reconcile(): void {
    const wanted = this.wanted();
    if (channels.every((channel) => wanted[channel].size === 0)) {
      void this.disconnect();
      return;
    }
    this.connect();
    if (!this.socket.isOpen) return;
    for (const channel of channels) {
      for (const marketId of wanted[channel]) {
        if (this.sent[channel].has(marketId)) continue;
        this.sent[channel].add(marketId);
        this.send({ action: 'SUBSCRIBE', channel, marketId: Number(marketId) });
      }
      for (const marketId of [...this.sent[channel]]) {
        if (wanted[channel].has(marketId)) continue;
        this.sent[channel].delete(marketId);
        this.send({ action: 'UNSUBSCRIBE', channel, marketId: Number(marketId) });
      }
    }
    for (const book of this.books.values()) {
      if (!book.known && book.seeding === undefined && this.sent['market.depth.diff'].has(book.marketId)) this.seed(book);
    }
  }

  /** Reads a book over REST (its market already subscribed), then applies the diffs that came meanwhile. */
  private seed(book: Book): void {
    const generation = this.generation;
    book.seeding = generation;
    book.pending = [];
    this.options.snapshot(book.tokenId).then(
      (snapshot) => {
        if (book.seeding !== generation || this.books.get(book.tokenId) !== book) return;
        book.seeding = undefined;
        book.bids = new Map(snapshot.bids.map((level) => [level.price, level.size]));
        book.asks = new Map(snapshot.asks.map((level) => [level.price, level.size]));
        book.metadata = { ...snapshot.sourceMetadata };
        book.timestamp = snapshot.timestamp ?? this.options.clock.now();
        for (const diff of book.pending) applyDiff(book, diff);
        if (book.pending.length > 0) book.timestamp = this.options.clock.now();
        book.pending = [];
        book.known = true;
        this.deliver(book);
      },
      (error: unknown) => {
        if (book.seeding !== generation || this.books.get(book.tokenId) !== book) return;
        const { venue, backoff } = this.options;
        for (const watcher of book.watchers) {
          watcher.error(
            new PredgateError('NETWORK_ERROR', `${venue}: could not read the book of ${book.tokenId} to start its stream; retrying`, {
              exchange: venue,
              retryable: true,
              cause: error,
            }),
          );
        }
        // Retried while the connection lasts; a new connection seeds it anyway.
        setTimeout(() => {
          if (book.seeding !== generation) return;
          book.seeding = undefined;
          this.scheduleReconcile();
        }, backoff.initialMs).unref();
      },
    );
  }

  private connect(): void {
    this.socket.connect();
  }

  private disconnect(): Promise<void> {
    return this.socket.close();
  }

  private resetConnectionState(): void {
    for (const channel of channels) this.sent[channel].clear();
    for (const book of this.books.values()) {
      book.known = false;
      book.seeding = undefined;
      book.pending = [];
    }
  }

  private send(message: Record<string, unknown>): void {
    this.socket.send(JSON.stringify(message));
  }

  private receive(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      // A bare keepalive answer is no data.
      if (/^\s*(pong|heartbeat|ping)\s*$/i.test(text)) return;
      this.broadcast(this.drift('a frame that is not JSON'));
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.broadcast(this.drift('a frame that is not a JSON object'));
      return;
    }
    const msg = message as Record<string, unknown>;
    switch (msg.msgType) {
      case 'market.depth.diff':
        this.depth(msg);
        return;
      case 'market.last.trade':
        this.trade(msg);
        return;
      default:
        // Acknowledgements, heartbeat answers and other channels' messages change no book.
        if (msg.msgType === undefined && (msg.code !== undefined || msg.errno !== undefined)) this.refusal(msg);
    }
  }

  private depth(msg: Record<string, unknown>): void {
    const marketId = marketIdOf(msg.marketId);
    const tokenId = typeof msg.tokenId === 'string' || typeof msg.tokenId === 'number' ? String(msg.tokenId) : undefined;
    const price = toNumber(msg.price as string);
    const size = toNumber(msg.size as string);
    const side = msg.side;
    if (tokenId === undefined || (side !== 'bids' && side !== 'asks') || price === undefined || price < 0 || price > 1 || size === undefined || size < 0) {
      const what =
        tokenId === undefined ? 'tokenId' : side !== 'bids' && side !== 'asks' ? 'side' : price === undefined || price < 0 || price > 1 ? 'price' : 'size';
      this.unreadableDepth(marketId, `a market.depth.diff with an unreadable ${what}`);
      return;
    }
    const book = this.books.get(tokenId);
    if (!book) return;
    const diff: Diff = { side, price, size };
    if (!book.known) {
      if (book.seeding !== undefined) book.pending.push(diff);
      return;
    }
    applyDiff(book, diff);
    book.timestamp = timeOf(msg.timestamp) ?? this.options.clock.now();
    this.deliver(book);
  }

  /** A diff that cannot be read leaves its market's books unknown: they are reported and read again. */
  private unreadableDepth(marketId: string | undefined, what: string): void {
    const error = this.drift(what);
    for (const book of this.books.values()) {
      if (marketId !== undefined && book.marketId !== marketId) continue;
      book.known = false;
      book.seeding = undefined;
      book.pending = [];
      for (const watcher of book.watchers) watcher.error(error);
    }
    this.scheduleReconcile();
  }

  private trade(msg: Record<string, unknown>): void {
    const tokenId = typeof msg.tokenId === 'string' || typeof msg.tokenId === 'number' ? String(msg.tokenId) : undefined;
    const entry = tokenId === undefined ? undefined : this.prints.get(tokenId);
    const price = toNumber(msg.price as string);
    const shares = toNumber(msg.shares as string);
    if (tokenId === undefined || price === undefined || price < 0 || price > 1 || shares === undefined || !(shares > 0)) {
      const error = this.drift('a market.last.trade without tokenId, price or shares');
      const marketId = marketIdOf(msg.marketId);
      for (const each of this.prints.values())
        if (marketId === undefined || each.marketId === marketId) for (const watcher of each.watchers) watcher.error(error);
      return;
    }
    if (!entry) return;
    const timestamp = timeOf(msg.timestamp ?? msg.createdAt) ?? this.options.clock.now();
    const side = String(msg.side ?? '').toLowerCase();
    const trade: Trade = {
      id: String(msg.txHash ?? msg.tradeId ?? `${tokenId}-${timestamp}-${price}-${shares}`),
      timestamp,
      price,
      amount: shares,
      side: side === 'buy' ? 'buy' : side === 'sell' ? 'sell' : 'unknown',
      outcomeId: tokenId,
    };
    for (const watcher of entry.watchers) watcher.data([trade]);
  }

  /** An answer with a non-zero code: the venue refused a command (which one it does not say). */
  private refusal(msg: Record<string, unknown>): void {
    const code = toNumber((msg.errno ?? msg.code) as string);
    if (code === 0 || code === 200) return;
    const { venue } = this.options;
    const text = String(msg.errmsg ?? msg.msg ?? msg.message ?? 'error').slice(0, 200);
    this.broadcast(
      new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} websocket: ${text}`, { exchange: venue, retryable: true, detail: { venueCode: code } }),
    );
  }

  private deliver(book: Book): void {
    const view = viewOf(book);
    for (const watcher of book.watchers) watcher.data(view);
  }

  private drift(what: string): PredgateError {
    const { venue } = this.options;
    return new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} websocket sent ${what}: not read`, { exchange: venue, retryable: true });
  }

  private broadcast(error: PredgateError): void {
    for (const book of this.books.values()) for (const watcher of book.watchers) watcher.error(error);
    for (const entry of this.prints.values()) for (const watcher of entry.watchers) watcher.error(error);
  }
}

function applyDiff(book: Book, diff: Diff): void {
  const levels = book[diff.side];
  if (diff.size > 0) levels.set(diff.price, diff.size);
  else levels.delete(diff.price);
}

function viewOf(book: Book): OrderBook {
  const levels = (entries: Map<number, number>) => [...entries].map(([price, size]) => ({ price, size }));
  return normalizeOrderBook({
    bids: levels(book.bids),
    asks: levels(book.asks),
    timestamp: book.timestamp,
    sourceMetadata: { ...book.metadata, tokenId: book.tokenId, marketId: book.marketId, source: 'stream' },
  });
}

function marketIdOf(value: unknown): string | undefined {
  const id = toNumber(value as string);
  return id !== undefined && Number.isInteger(id) && id >= 0 ? String(id) : undefined;
}

/** A message's time: epoch milliseconds, or seconds. */
function timeOf(value: unknown): number | undefined {
  const time = toNumber(value as string);
  if (time === undefined || time <= 0) return undefined;
  return time < 1e11 ? time * 1000 : time;
}
