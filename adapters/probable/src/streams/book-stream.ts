import { StreamBook, VenueStream, createFeed, jsonObjectOf, toEpochMs, toNumber } from '@predgate/core';
import type { Feed, OrderBook, RedialingSocket, VenueStreamOptions } from '@predgate/core';

/** `url`: the websocket root (`wss://ws.probable.markets/public/api/v1`); the connection goes to `{url}/ws?chainId={chainId}`. */
export interface ProbableStreamOptions extends VenueStreamOptions {
  chainId: number;
}

/** One watched token's book as the socket leaves it, with the time and market of its last message. */
interface Book {
  levels: StreamBook;
  timestamp: number;
  metadata: Record<string, unknown>;
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
 * to a book already known. A message that cannot be read is a retryable
 * error, and its book waits for the next whole one.
 */
export class ProbableStream extends VenueStream<{ book: OrderBook }, null> {
  protected readonly connection: RedialingSocket;
  private nextId = 1;
  private readonly books = new Map<string, Book>();
  /** The tokens each command on the open connection named, by id, for its answer. */
  private readonly commands = new Map<number, string[]>();

  constructor(private readonly options: ProbableStreamOptions) {
    super(options.venue, ['book']);
    this.connection = this.plainSocket({
      dial: () => {
        const url = new URL(`${options.url.replace(/\/+$/, '')}/ws`);
        url.searchParams.set('chainId', String(options.chainId));
        return { url: url.toString() };
      },
      pingIntervalMs: options.pingIntervalMs,
      backoff: options.backoff,
      onMessage: (text) => this.receive(text),
      onDown: () => {
        this.commands.clear();
        for (const book of this.books.values()) book.levels.forget();
      },
    });
  }

  /** Tokens watched now (for tests and status). */
  get tokens(): string[] {
    return this.subscriptions.keys('book');
  }

  watchOrderBook(outcomeId: string): Feed<OrderBook> {
    return createFeed((emit) => {
      if (!/^\d{20,80}$/.test(outcomeId)) return this.notAnOutcome(emit, outcomeId, 'a decimal token id');
      if (!this.books.has(outcomeId)) this.books.set(outcomeId, { levels: new StreamBook(), timestamp: 0, metadata: {} });
      const stop = this.watch('book', outcomeId, null, emit);
      return () => {
        stop();
        if (!this.watched('book', outcomeId)) this.books.delete(outcomeId);
      };
    });
  }

  override async close(): Promise<void> {
    this.books.clear();
    await super.close();
  }

  /** One SUBSCRIBE naming the tokens not yet subscribed. */
  protected subscribe(_channel: 'book', tokens: string[]): void {
    const id = this.command(
      'SUBSCRIBE',
      tokens.map((token) => `book:${token}`),
    );
    this.commands.set(id, tokens);
  }

  protected unsubscribe(_channel: 'book', token: string): void {
    this.command('UNSUBSCRIBE', [`book:${token}`]);
  }

  private command(method: 'SUBSCRIBE' | 'UNSUBSCRIBE', params: string[]): number {
    const id = this.nextId++;
    this.connection.send(JSON.stringify({ id, method, params }));
    return id;
  }

  private receive(text: string): void {
    const message = jsonObjectOf(text);
    if (!message) {
      if (/^\s*(pong|ping)\s*$/i.test(text)) return;
      this.broadcast(this.drift('a frame that is not JSON (or not an object)'));
      return;
    }
    if (typeof message.stream === 'string') this.stream(message.stream, message.data);
    else if (message.status !== undefined) this.answered(message);
    else this.broadcast(this.drift('a message with neither a stream nor a status'));
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
    book.levels.snapshot(bids, asks);
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
    if (!book.levels.known || read.length === 0) return;
    for (const { side, level } of read) book.levels.delta(side, level);
    book.timestamp = toEpochMs(payload.timestamp as string) ?? this.options.clock.now();
    this.deliver(token, book);
  }

  /** A command's answer: 200 is an acknowledgement; a 4xx refusal ends the watches of the tokens it named, another is retried. */
  private answered(msg: Record<string, unknown>): void {
    const status = toNumber(msg.status as string);
    const id = toNumber(msg.id as string);
    const tokens = id === undefined ? undefined : this.commands.get(id);
    if (id !== undefined) this.commands.delete(id);
    if (status !== undefined && status >= 200 && status < 300) return;
    const text = String((msg.error as { message?: unknown } | undefined)?.message ?? msg.result ?? msg.message ?? `status ${String(msg.status)}`);
    if (!tokens) {
      this.broadcast(this.venueError(text, { status }));
      return;
    }
    const notFound = status !== undefined && status >= 400 && status < 500;
    this.refused('book', tokens, this.refusal(`the book stream (${String(status)}): ${text}`, tokens, notFound, { status }));
  }

  /** A message that cannot be read leaves its book unknown until the next whole one: reported, never delivered wrong. */
  private unreadable(token: string, book: Book, what: string): void {
    book.levels.forget();
    this.forgetLatest('book', token);
    this.fail('book', token, this.drift(what));
    // A fresh subscription makes the venue send the whole book again.
    if (this.subscriptions.forget('book', token)) {
      this.unsubscribe('book', token);
      this.subscriptions.scheduleFlush();
    }
  }

  /** The book, whole, to its watchers, and kept for those who come later. */
  private deliver(token: string, book: Book): void {
    const view = book.levels.toOrderBook({ timestamp: book.timestamp, sourceMetadata: { ...book.metadata, tokenId: token, source: 'stream' } });
    this.publish('book', token, () => view, true);
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
