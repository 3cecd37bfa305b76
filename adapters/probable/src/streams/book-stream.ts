import { PredgateError, RedialingSocket, Subscriptions, createFeed, normalizeOrderBook, toEpochMs, toNumber } from '@predgate/core';
import type { Clock, Feed, FeedListener, OrderBook } from '@predgate/core';

export interface ProbableStreamOptions {
  /** The websocket root (`wss://ws.probable.markets/public/api/v1`); the connection goes to `{url}/ws?chainId={chainId}`. */
  url: string;
  chainId: number;
  venue: string;
  clock: Clock;
  pingIntervalMs: number;
  backoff: { initialMs: number; maxMs: number };
}

/** One token's book as the socket leaves it. */
interface Book {
  bids: Map<number, number>;
  asks: Map<number, number>;
  known: boolean;
  timestamp: number;
  metadata: Record<string, unknown>;
  watchers: Set<FeedListener<OrderBook>>;
}

interface Level {
  price: number;
  size: number;
}

/**
 * Probable's public websocket for one adapter instance: one connection, one
 * `book:<tokenId>` stream per watched token, subscribed with
 * `{"id", "method": "SUBSCRIBE", "params": [...]}` naming only the tokens not
 * yet subscribed (acknowledged `{"id", "status": 200}`). Each `book` message is
 * the token's whole book (the shape of `GET /book`) and replaces it; a
 * Polymarket-style `price_changes` list (absolute sizes per level) is applied
 * to a book already known. A token nobody watches is unsubscribed; the
 * connection closes with the last one. A dropped connection is redialled with
 * backoff and every token subscribed again; a message that cannot be read is a
 * retryable error, and its book waits for the next whole one.
 */
export class ProbableStream {
  private readonly socket: RedialingSocket;
  private nextId = 1;
  private readonly books = new Map<string, Book>();
  /** Tokens watched, and those subscribed or asked for on the open connection. */
  private readonly subscriptions: Subscriptions<'book'>;
  private readonly commands = new Map<number, string[]>();

  constructor(private readonly options: ProbableStreamOptions) {
    this.subscriptions = new Subscriptions({
      channels: ['book'],
      canSend: () => this.socket.isOpen,
      // One SUBSCRIBE naming the tokens not yet subscribed.
      subscribe: (_channel, tokens) => {
        const id = this.command(
          'SUBSCRIBE',
          tokens.map((token) => `book:${token}`),
        );
        this.commands.set(id, tokens);
      },
      unsubscribe: (_channel, token) => this.command('UNSUBSCRIBE', [`book:${token}`]),
      onIdle: () => void this.disconnect(),
    });
    this.socket = new RedialingSocket({
      venue: options.venue,
      dial: () => {
        const url = new URL(`${options.url.replace(/\/+$/, '')}/ws`);
        url.searchParams.set('chainId', String(options.chainId));
        return { url: url.toString() };
      },
      pingIntervalMs: options.pingIntervalMs,
      backoff: options.backoff,
      wanted: () => this.books.size > 0,
      onOpen: () => this.subscriptions.scheduleFlush(),
      onMessage: (text) => this.receive(text),
      onDown: () => this.resetConnectionState(),
      onDrop: (error) => this.broadcast(error),
    });
  }

  /** Tokens watched now (for tests and status). */
  get tokens(): string[] {
    return [...this.books.keys()];
  }

  watchOrderBook(outcomeId: string): Feed<OrderBook> {
    return createFeed((emit) => {
      const { venue } = this.options;
      if (!/^\d{20,80}$/.test(outcomeId)) {
        queueMicrotask(() =>
          emit.error(
            new PredgateError('OUTCOME_NOT_FOUND', `${venue}: "${outcomeId.slice(0, 40)}" is not an outcome token id`, {
              exchange: venue,
              retryable: false,
              detail: { outcomeId: outcomeId.slice(0, 80) },
            }),
          ),
        );
        return () => undefined;
      }
      let book = this.books.get(outcomeId);
      if (!book) {
        book = { bids: new Map(), asks: new Map(), known: false, timestamp: 0, metadata: {}, watchers: new Set() };
        this.books.set(outcomeId, book);
      }
      book.watchers.add(emit);
      if (book.known) {
        const view = viewOf(book, outcomeId);
        queueMicrotask(() => emit.data(view));
      }
      this.connect();
      // Flushed even when the token was wanted already: one a retryable refusal forgot is asked for again.
      if (!this.subscriptions.want('book', outcomeId)) this.subscriptions.scheduleFlush();
      const watched = book;
      return () => {
        watched.watchers.delete(emit);
        if (watched.watchers.size > 0 || this.books.get(outcomeId) !== watched) return;
        this.books.delete(outcomeId);
        this.subscriptions.unwant('book', outcomeId);
      };
    });
  }

  async close(): Promise<void> {
    this.books.clear();
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
    this.subscriptions.reset();
    this.commands.clear();
    for (const book of this.books.values()) book.known = false;
  }

  private command(method: 'SUBSCRIBE' | 'UNSUBSCRIBE', params: string[]): number {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, method, params }));
    return id;
  }

  private receive(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      if (/^\s*(pong|ping)\s*$/i.test(text)) return;
      this.broadcast(this.drift('a frame that is not JSON'));
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.broadcast(this.drift('a frame that is not a JSON object'));
      return;
    }
    const msg = message as Record<string, unknown>;
    if (typeof msg.stream === 'string') {
      this.stream(msg.stream, msg.data);
      return;
    }
    if (msg.status !== undefined) {
      this.answer(msg);
      return;
    }
    this.broadcast(this.drift('a message with neither a stream nor a status'));
  }

  private stream(name: string, data: unknown): void {
    const match = /^book:(\d+)$/.exec(name);
    // Other streams (private execution reports) are not this client's.
    if (!match) return;
    const token = match[1]!;
    const book = this.books.get(token);
    if (!book) return;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      this.unreadable(token, book, `a ${name.slice(0, 12)}… message without a data object`);
      return;
    }
    const payload = data as Record<string, unknown>;
    if (Array.isArray(payload.price_changes)) {
      this.changes(token, book, payload);
      return;
    }
    const bids = levelsOf(payload.bids);
    const asks = levelsOf(payload.asks);
    if (!bids || !asks) {
      this.unreadable(token, book, `a book for ${token.slice(0, 12)}… with unreadable ${bids ? 'asks' : 'bids'}`);
      return;
    }
    book.bids = new Map(bids.map((level) => [level.price, level.size]));
    book.asks = new Map(asks.map((level) => [level.price, level.size]));
    book.known = true;
    book.timestamp = toEpochMs(payload.timestamp as string) ?? this.options.clock.now();
    book.metadata = typeof payload.market === 'string' ? { market: payload.market } : {};
    if (typeof payload.neg_risk === 'boolean') book.metadata.negRisk = payload.neg_risk;
    this.deliver(token, book);
  }

  /** Level changes (absolute sizes, BUY the bids, SELL the asks) to a book already known. */
  private changes(token: string, book: Book, payload: Record<string, unknown>): void {
    const read: Array<{ side: 'bids' | 'asks'; level: Level }> = [];
    for (const change of payload.price_changes as unknown[]) {
      const entry = (typeof change === 'object' && change !== null ? change : {}) as Record<string, unknown>;
      if (entry.asset_id !== undefined && String(entry.asset_id) !== token) continue;
      const level = levelOf(entry);
      const side = String(entry.side ?? '').toUpperCase();
      if (!level || (side !== 'BUY' && side !== 'SELL')) {
        this.unreadable(token, book, `a price change for ${token.slice(0, 12)}… without price, size or side`);
        return;
      }
      read.push({ side: side === 'BUY' ? 'bids' : 'asks', level });
    }
    if (!book.known || read.length === 0) return;
    for (const { side, level } of read) {
      if (level.size > 0) book[side].set(level.price, level.size);
      else book[side].delete(level.price);
    }
    book.timestamp = toEpochMs(payload.timestamp as string) ?? this.options.clock.now();
    this.deliver(token, book);
  }

  /** A subscription answer: 200 is an acknowledgement; a refusal ends the watches of the tokens it named. */
  private answer(msg: Record<string, unknown>): void {
    const status = toNumber(msg.status as string);
    const id = toNumber(msg.id as string);
    const tokens = id === undefined ? undefined : this.commands.get(id);
    if (id !== undefined) this.commands.delete(id);
    if (status !== undefined && status >= 200 && status < 300) return;
    const { venue } = this.options;
    const text = String((msg.error as { message?: unknown } | undefined)?.message ?? msg.result ?? msg.message ?? `status ${String(msg.status)}`).slice(0, 200);
    if (!tokens) {
      this.broadcast(new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} websocket: ${text}`, { exchange: venue, retryable: true, detail: { status } }));
      return;
    }
    const refused = status !== undefined && status >= 400 && status < 500;
    const error = refused
      ? new PredgateError('OUTCOME_NOT_FOUND', `${venue} refused the book stream (${status}): ${text}`, {
          exchange: venue,
          retryable: false,
          detail: { status },
        })
      : new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} refused the book stream: ${text}`, { exchange: venue, retryable: true, detail: { status } });
    for (const token of tokens) {
      // Asked again on the next connection unless the refusal is final.
      if (!refused) this.subscriptions.forget('book', token);
      for (const watcher of this.books.get(token)?.watchers ?? []) watcher.error(error);
    }
  }

  /** A message that cannot be read leaves its book unknown until the next whole one: reported, never delivered wrong. */
  private unreadable(token: string, book: Book, what: string): void {
    book.known = false;
    const error = this.drift(what);
    for (const watcher of book.watchers) watcher.error(error);
    // A fresh subscription makes the venue send the whole book again.
    if (this.subscriptions.forget('book', token)) {
      this.command('UNSUBSCRIBE', [`book:${token}`]);
      this.subscriptions.scheduleFlush();
    }
  }

  private deliver(token: string, book: Book): void {
    const view = viewOf(book, token);
    for (const watcher of book.watchers) watcher.data(view);
  }

  private drift(what: string): PredgateError {
    const { venue } = this.options;
    return new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} websocket sent ${what}: not read`, { exchange: venue, retryable: true });
  }

  private broadcast(error: PredgateError): void {
    for (const book of this.books.values()) for (const watcher of book.watchers) watcher.error(error);
  }
}

function levelOf(entry: unknown): Level | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { price, size } = entry as Record<string, unknown>;
  const p = toNumber(price as string);
  const s = toNumber(size as string);
  if (p === undefined || s === undefined || p < 0 || p > 1 || s < 0) return undefined;
  return { price: p, size: s };
}

function levelsOf(value: unknown): Level[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const levels: Level[] = [];
  for (const entry of value) {
    const level = levelOf(entry);
    if (!level) return undefined;
    if (level.size > 0) levels.push(level);
  }
  return levels;
}

function viewOf(book: Book, token: string): OrderBook {
  const levels = (entries: Map<number, number>) => [...entries].map(([price, size]) => ({ price, size }));
  return normalizeOrderBook({
    bids: levels(book.bids),
    asks: levels(book.asks),
    timestamp: book.timestamp,
    sourceMetadata: { ...book.metadata, tokenId: token, source: 'stream' },
  });
}
