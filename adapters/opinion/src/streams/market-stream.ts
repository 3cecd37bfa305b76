import { PredgateError, StreamBook, VenueStream, createFeed, isPredgateError, jsonObjectOf, refusedHandshake, toNumber } from '@predgate/core';
import type { Feed, FeedListener, OrderBook, RedialingSocket, Trade, VenueStreamOptions } from '@predgate/core';

/** Where an outcome's book lives: its token, and the numeric market Opinion's channels are subscribed by. */
export interface OpinionOutcomeLocation {
  tokenId: string;
  marketId: string;
}

/** `url`: the websocket root (`wss://ws.opinion.trade`); `pingIntervalMs`: how often `{"action":"HEARTBEAT"}` goes (Opinion asks for one about every 30 s). */
export interface OpinionStreamOptions extends VenueStreamOptions {
  /** The caller's key, else the operator's read key: Opinion's websocket refuses a connection without one. */
  apiKey: string | undefined;
  /** The token and market of an outcome id (a token id, or a market id meaning its YES token). */
  locate(outcomeId: string): Promise<OpinionOutcomeLocation>;
  /** A token's book over REST: the depth channel sends only changes, so each book is seeded from it. */
  snapshot(tokenId: string): Promise<OrderBook>;
}

type Channels = { 'market.depth.diff': OrderBook; 'market.last.trade': Trade[] };
type Channel = keyof Channels;
const depth = 'market.depth.diff';
const channels: Channel[] = [depth, 'market.last.trade'];

interface Diff {
  side: 'bids' | 'asks';
  price: number;
  size: number;
}

/** One watched token's book as the socket leaves it. */
interface Book {
  tokenId: string;
  marketId: string;
  /** Seeded from REST and kept since: only a known book is delivered. */
  levels: StreamBook;
  /** The REST read in flight (each read its own token, so a stale one is discarded); diffs meanwhile wait in `pending`. */
  seeding: object | undefined;
  pending: Diff[];
  timestamp: number;
  metadata: Record<string, unknown>;
}

/**
 * Opinion's websocket for one adapter instance: one connection
 * (`wss://ws.opinion.trade?apikey=…`), the `market.depth.diff` and
 * `market.last.trade` channels. Watches are kept per token, but the venue
 * subscribes per numeric market id, so the YES and NO tokens of a market share
 * a subscription, unsubscribed when neither is watched. The depth channel
 * sends absolute sizes per level and no snapshot: each watched token's book is
 * read over REST once its market is subscribed, the diffs that arrive
 * meanwhile are applied after it, and the book is delivered whole. After a
 * drop every market is subscribed again and every book read again; a diff that
 * cannot be read is reported and its market's books read again, never
 * delivered wrong.
 */
export class OpinionStream extends VenueStream<Channels, null> {
  protected readonly connection: RedialingSocket;
  /** The market of each token located, for the subscriptions. */
  private readonly marketOf = new Map<string, string>();
  /** Markets subscribed on the open connection, by channel. */
  private readonly sent: Record<Channel, Set<string>> = { 'market.depth.diff': new Set(), 'market.last.trade': new Set() };
  private readonly books = new Map<string, Book>();
  private readonly located = new Map<string, Promise<OpinionOutcomeLocation>>();

  constructor(private readonly options: OpinionStreamOptions) {
    super(options.venue, channels);
    this.connection = this.plainSocket({
      dial: () => {
        const url = new URL(options.url);
        url.searchParams.set('apikey', options.apiKey ?? '');
        return { url: url.toString() };
      },
      pingIntervalMs: options.pingIntervalMs,
      keepalive: () => this.send({ action: 'HEARTBEAT' }),
      backoff: options.backoff,
      onMessage: (text) => this.receive(text),
      onDown: () => this.resetConnectionState(),
      onRefused: (status) => refusedHandshake(options.venue, status),
    });
  }

  /** Markets wanted now, by channel (for tests and status). */
  get markets(): Record<Channel, string[]> {
    const marketsOf = (channel: Channel) => [...new Set(this.subscriptions.keys(channel).map((token) => this.marketOf.get(token)!))];
    return { 'market.depth.diff': marketsOf(depth), 'market.last.trade': marketsOf('market.last.trade') };
  }

  watchOrderBook(outcomeId: string): Feed<OrderBook> {
    return createFeed((emit) => this.watchOutcome(depth, outcomeId, emit));
  }

  watchTrades(outcomeId: string): Feed<Trade[]> {
    return createFeed((emit) => this.watchOutcome('market.last.trade', outcomeId, emit));
  }

  override async close(): Promise<void> {
    this.books.clear();
    await super.close();
  }

  /** Subscribes the markets of these tokens not yet subscribed, and reads each token's book to start from. */
  protected subscribe(channel: Channel, tokens: string[]): void {
    for (const token of tokens) {
      const marketId = this.marketOf.get(token)!;
      if (!this.sent[channel].has(marketId)) {
        this.sent[channel].add(marketId);
        this.send({ action: 'SUBSCRIBE', channel, marketId: Number(marketId) });
      }
      if (channel === depth) this.seed(token);
    }
  }

  /** Unsubscribes the token's market unless its other token is still wanted. */
  protected unsubscribe(channel: Channel, token: string): void {
    const marketId = this.marketOf.get(token)!;
    if (this.subscriptions.keys(channel).some((other) => this.marketOf.get(other) === marketId)) return;
    if (this.sent[channel].delete(marketId)) this.send({ action: 'UNSUBSCRIBE', channel, marketId: Number(marketId) });
  }

  /** Finds the outcome's token and market, then watches the token (its book kept from here on, for the depth channel). */
  private watchOutcome<C extends Channel>(channel: C, outcomeId: string, emit: FeedListener<Channels[C]>): () => void {
    const { venue } = this.options;
    if (!this.options.apiKey) {
      const error = new PredgateError(
        'AUTHENTICATION_ERROR',
        `${venue}: its websocket needs an API key: send an apiKey credential with the subscription or configure the adapter's apiKey`,
        { exchange: venue, retryable: false },
      );
      queueMicrotask(() => emit.error(error));
      return () => undefined;
    }
    let stop: (() => void) | undefined;
    let ended = false;
    this.locate(
      outcomeId,
      emit,
      () => ended,
      ({ tokenId, marketId }) => {
        this.marketOf.set(tokenId, marketId);
        if (channel === depth && !this.books.has(tokenId)) this.books.set(tokenId, emptyBook(tokenId, marketId));
        const unwatch = this.watch(channel, tokenId, null, emit);
        stop = () => {
          unwatch();
          if (channel === depth && !this.watched(depth, tokenId)) this.books.delete(tokenId);
        };
      },
    );
    return () => {
      ended = true;
      stop?.();
    };
  }

  /**
   * Finds an outcome's token and market. A refusal (an unknown id) ends the
   * watch; a failure that may pass is reported as retryable and the look-up
   * tried again with backoff while the watch lasts.
   */
  private locate(outcomeId: string, emit: FeedListener<never>, ended: () => boolean, found: (location: OpinionOutcomeLocation) => void, attempt = 0): void {
    const { venue, backoff } = this.options;
    let location = this.located.get(outcomeId);
    if (!location) {
      location = this.options.locate(outcomeId);
      this.located.set(outcomeId, location);
      // A failed look-up is not kept: the next watch asks again.
      location.catch(() => this.located.delete(outcomeId));
    }
    location.then(
      (value) => {
        if (!ended()) found(value);
      },
      (error: unknown) => {
        if (ended()) return;
        const retryable = isPredgateError(error) ? error.retryable : true;
        const message = isPredgateError(error) ? error.message : `${venue}: could not find the market of ${outcomeId.slice(0, 80)}`;
        const code = isPredgateError(error) ? error.code : 'NETWORK_ERROR';
        emit.error(new PredgateError(code, message, { exchange: venue, retryable, cause: error }));
        if (!retryable) return;
        const delay = Math.min(backoff.maxMs, backoff.initialMs * 2 ** attempt);
        setTimeout(() => {
          if (!ended()) this.locate(outcomeId, emit, ended, found, attempt + 1);
        }, delay).unref();
      },
    );
  }

  /** Reads a book over REST (its market already subscribed), then applies the diffs that came meanwhile. */
  private seed(tokenId: string): void {
    const book = this.books.get(tokenId);
    if (!book) return;
    const attempt = {};
    book.levels.forget();
    book.seeding = attempt;
    book.pending = [];
    const current = () => book.seeding === attempt && this.books.get(tokenId) === book;
    this.options.snapshot(tokenId).then(
      (snapshot) => {
        if (!current()) return;
        book.seeding = undefined;
        book.levels.snapshot(snapshot.bids, snapshot.asks);
        book.metadata = { ...snapshot.sourceMetadata };
        book.timestamp = snapshot.timestamp ?? this.options.clock.now();
        for (const { side, price, size } of book.pending) book.levels.delta(side, { price, size });
        if (book.pending.length > 0) book.timestamp = this.options.clock.now();
        book.pending = [];
        this.deliver(book);
      },
      (error: unknown) => {
        if (!current()) return;
        const { venue, backoff } = this.options;
        this.fail(
          depth,
          tokenId,
          new PredgateError('NETWORK_ERROR', `${venue}: could not read the book of ${tokenId} to start its stream; retrying`, {
            exchange: venue,
            retryable: true,
            cause: error,
          }),
        );
        // Retried while the connection lasts; a new connection seeds it anyway.
        setTimeout(() => current() && this.seed(tokenId), backoff.initialMs).unref();
      },
    );
  }

  private resetConnectionState(): void {
    for (const channel of channels) this.sent[channel].clear();
    for (const book of this.books.values()) {
      book.levels.forget();
      book.seeding = undefined;
      book.pending = [];
    }
  }

  private send(message: Record<string, unknown>): void {
    this.connection.send(JSON.stringify(message));
  }

  private receive(text: string): void {
    const message = jsonObjectOf(text);
    if (!message) {
      // A bare keepalive answer is no data.
      if (/^\s*(pong|heartbeat|ping)\s*$/i.test(text)) return;
      this.broadcast(this.drift('a frame that is not JSON (or not an object)'));
      return;
    }
    switch (message.msgType) {
      case depth:
        this.depth(message);
        return;
      case 'market.last.trade':
        this.trade(message);
        return;
      default:
        // Acknowledgements, heartbeat answers and other channels' messages change no book.
        if (message.msgType === undefined && (message.code !== undefined || message.errno !== undefined)) this.answered(message);
    }
  }

  private depth(msg: Record<string, unknown>): void {
    const marketId = marketIdOf(msg.marketId);
    const tokenId = tokenIdOf(msg.tokenId);
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
    if (!book.levels.known) {
      if (book.seeding !== undefined) book.pending.push({ side, price, size });
      return;
    }
    book.levels.delta(side, { price, size });
    book.timestamp = timeOf(msg.timestamp) ?? this.options.clock.now();
    this.deliver(book);
  }

  /** A diff that cannot be read leaves its market's books (every book, when the market is unreadable too) unknown: reported and read again. */
  private unreadableDepth(marketId: string | undefined, what: string): void {
    const error = this.drift(what);
    for (const book of this.books.values()) {
      if (marketId !== undefined && book.marketId !== marketId) continue;
      book.levels.forget();
      book.seeding = undefined;
      book.pending = [];
      this.forgetLatest(depth, book.tokenId);
      this.fail(depth, book.tokenId, error);
      if (this.sent[depth].has(book.marketId)) this.seed(book.tokenId);
    }
  }

  private trade(msg: Record<string, unknown>): void {
    const tokenId = tokenIdOf(msg.tokenId);
    const price = toNumber(msg.price as string);
    const shares = toNumber(msg.shares as string);
    if (tokenId === undefined || price === undefined || price < 0 || price > 1 || shares === undefined || !(shares > 0)) {
      const error = this.drift('a market.last.trade without tokenId, price or shares');
      const marketId = marketIdOf(msg.marketId);
      for (const token of this.watchedKeys('market.last.trade'))
        if (marketId === undefined || this.marketOf.get(token) === marketId) this.fail('market.last.trade', token, error);
      return;
    }
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
    this.publish('market.last.trade', tokenId, () => [trade]);
  }

  /** An answer with a non-zero code: the venue refused a command (which one it does not say). */
  private answered(msg: Record<string, unknown>): void {
    const code = toNumber((msg.errno ?? msg.code) as string);
    if (code === 0 || code === 200) return;
    this.broadcast(this.venueError(String(msg.errmsg ?? msg.msg ?? msg.message ?? 'error'), { venueCode: code }));
  }

  /** The book, whole, to its watchers, and kept for those who come later. */
  private deliver(book: Book): void {
    const view = book.levels.toOrderBook({
      timestamp: book.timestamp,
      sourceMetadata: { ...book.metadata, tokenId: book.tokenId, marketId: book.marketId, source: 'stream' },
    });
    this.publish(depth, book.tokenId, () => view, true);
  }
}

function emptyBook(tokenId: string, marketId: string): Book {
  return { tokenId, marketId, levels: new StreamBook(), seeding: undefined, pending: [], timestamp: 0, metadata: {} };
}

function tokenIdOf(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
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
