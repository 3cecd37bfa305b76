import { MessageSequence, PredgateError, StreamBook, VenueStream, createFeed, isUnreachable, refusedHandshake, toNumber, yesNoViews } from '@predgate/core';
import type { Credentials, Feed, FeedListener, OrderBook, RedialingSocket, Trade, VenueStreamOptions } from '@predgate/core';
import { createSigner, signedPath } from '../auth/signer.js';
import { outcomeIdOf, outcomeOf } from '../ids.js';
import type { ContractSide } from '../ids.js';
import { complement, roundPrice } from '../normalize/numbers.js';

export interface KalshiStreamOptions extends Omit<VenueStreamOptions, 'url'> {
  /**
   * Websocket roots serving the same channels (`wss://…/trade-api/ws/v2`), the
   * recommended one first: a host that does not resolve or accept the
   * connection hands the redial to the next, which is kept while it works.
   */
  urls: readonly string[];
  /** The handshake is signed even for public channels: the caller's key, else the operator's stream key. */
  credentials: Credentials | undefined;
}

type Channels = { orderbook_delta: OrderBook; trade: Trade[] };
type Channel = keyof Channels;
const channels: Channel[] = ['orderbook_delta', 'trade'];

/** What a market ticker can be: anything else is no outcome of Kalshi's and is never sent. */
const tickerPattern = /^[A-Z0-9][A-Z0-9._-]{0,99}$/;

/** One market's book, kept as its YES book: bids to buy YES as bids, bids to buy NO at p as YES asks at 1 − p. */
interface MarketBook {
  book: StreamBook;
  /** Venue time of the last change (the delta's `ts`), else the receive time. */
  timestamp: number;
}

/**
 * Kalshi's websocket for one adapter instance: one signed connection, the
 * `orderbook_delta` channel (a snapshot, then deltas numbered per
 * subscription) and the `trade` channel. Each subscribe command names only
 * the tickers not yet subscribed; a ticker nobody watches is taken out of its
 * subscription; the connection closes with the last ticker. A dropped
 * connection is redialled and every ticker subscribed again; a sequence gap,
 * or a delta that cannot be read, resubscribes its tickers for a fresh
 * snapshot. YES and NO outcomes of a market share its one subscription: the
 * NO book is the YES book mirrored, NO prints are priced at the NO price.
 */
export class KalshiStream extends VenueStream<Channels, ContractSide> {
  protected readonly connection: RedialingSocket;
  private nextId = 1;
  private readonly books = new Map<string, MarketBook>();
  private readonly commands = new Map<number, { channel: Channel; tickers: string[] }>();
  /** The venue's subscriptions on the open connection by id (`sid`), with the tickers each still carries. */
  private readonly sids = new Map<number, { channel: Channel; tickers: Set<string>; sequence: MessageSequence }>();
  /** The root dialled: it moves on when a host cannot be reached. */
  private host = 0;

  constructor(private readonly options: KalshiStreamOptions) {
    super(options.venue, channels);
    this.connection = this.plainSocket({
      dial: () => {
        const url = options.urls[this.host % options.urls.length]!;
        return { url, headers: createSigner(options.credentials, options.venue).headers('GET', signedPath(url), options.clock.now()) };
      },
      pingIntervalMs: options.pingIntervalMs,
      backoff: options.backoff,
      onMessage: (text) => this.receive(text),
      onDown: () => {
        this.commands.clear();
        this.sids.clear();
        for (const { book } of this.books.values()) book.forget();
      },
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
    return createFeed((emit) => this.watchOutcome('orderbook_delta', outcomeId, emit));
  }

  watchTrades(outcomeId: string): Feed<Trade[]> {
    return createFeed((emit) => this.watchOutcome('trade', outcomeId, emit));
  }

  override async close(): Promise<void> {
    this.books.clear();
    await super.close();
  }

  protected subscribe(channel: Channel, tickers: string[]): void {
    const id = this.command('subscribe', { channels: [channel], market_tickers: tickers });
    this.commands.set(id, { channel, tickers });
  }

  /** Kalshi unsubscribes by subscription id: a ticker sharing its subscription with others is deleted from it instead. */
  protected unsubscribe(channel: Channel, ticker: string): void {
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

  private watchOutcome<C extends Channel>(channel: C, outcomeId: string, emit: FeedListener<Channels[C]>): () => void {
    const { ticker, side } = outcomeOf(outcomeId);
    if (!tickerPattern.test(ticker)) return this.notAnOutcome(emit, outcomeId, '<market ticker> or <market ticker>-NO');
    if (!this.connection.active && !this.canSign()) return this.unsigned(emit);
    if (channel === 'trade') return this.watch(channel, ticker, side, emit);
    let market = this.books.get(ticker);
    if (!market) {
      market = { book: new StreamBook(), timestamp: 0 };
      this.books.set(ticker, market);
    }
    const owner = market;
    const stop = this.watch(channel, ticker, side, emit);
    return () => {
      stop();
      // A watcher from before close() finds its ticker's book replaced: the new one is not its to end.
      if (!this.watched('orderbook_delta', ticker) && this.books.get(ticker) === owner) this.books.delete(ticker);
    };
  }

  /** Whether the handshake can be signed: it fails before any connection when it cannot. */
  private canSign(): boolean {
    try {
      createSigner(this.options.credentials, this.options.venue);
      return true;
    } catch {
      return false;
    }
  }

  /** A watch without a key to sign the handshake with: AUTHENTICATION_ERROR, final, and nothing dialled. */
  private unsigned(emit: FeedListener<never>): () => void {
    const { venue } = this.options;
    const error = new PredgateError(
      'AUTHENTICATION_ERROR',
      `${venue}: its websocket needs an API key, even for public channels: send credentials with the subscription (apiKey, privateKey) or configure the adapter's stream.credentials`,
      { exchange: venue, retryable: false },
    );
    queueMicrotask(() => emit.error(error));
    return () => undefined;
  }

  private command(cmd: string, params: Record<string, unknown>): number {
    const id = this.nextId++;
    this.connection.send(JSON.stringify({ id, cmd, params }));
    return id;
  }

  private receive(text: string): void {
    const message = this.messageOf(text);
    if (!message) return;
    const msg = jsonRecord(message.msg);
    const sid = toNumber(message.sid);
    switch (message.type) {
      case 'subscribed':
        this.subscribed(toNumber(message.id), toNumber(msg.sid), msg.channel);
        return;
      case 'orderbook_snapshot':
        if (this.inSequence(sid, toNumber(message.seq))) this.snapshot(msg);
        return;
      case 'orderbook_delta':
        if (this.inSequence(sid, toNumber(message.seq))) this.delta(sid, msg);
        return;
      case 'trade':
        this.trade(msg);
        return;
      case 'error':
        this.answeredWithError(toNumber(message.id), msg);
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

  private subscribed(id: number | undefined, sid: number | undefined, channel: unknown): void {
    const command = id === undefined ? undefined : this.commands.get(id);
    if (!command || sid === undefined) return;
    this.commands.delete(id!);
    const tickers = new Set(command.tickers.filter((ticker) => this.subscriptions.wants(command.channel, ticker)));
    if (tickers.size === 0) {
      this.command('unsubscribe', { sids: [sid] });
      return;
    }
    const named = channels.find((known) => known === channel) ?? command.channel;
    this.sids.set(sid, { channel: named, tickers, sequence: new MessageSequence() });
  }

  /** True when a message follows the one before on its subscription; a gap resubscribes its tickers for a fresh snapshot. */
  private inSequence(sid: number | undefined, seq: number | undefined): boolean {
    const subscription = sid === undefined ? undefined : this.sids.get(sid);
    if (!subscription || seq === undefined) return true;
    const gap = subscription.sequence.take(seq);
    if (!gap) return true;
    this.resync(sid!, (ticker) => `missed book updates for ${ticker} (sequence ${gap.expected} expected, ${gap.received} came)`);
    return false;
  }

  /** Drops a subscription whose books can no longer be trusted and asks for its tickers again: the venue answers with fresh snapshots. */
  private resync(sid: number, why: (ticker: string) => string): void {
    const subscription = this.sids.get(sid);
    if (!subscription) return;
    this.sids.delete(sid);
    this.command('unsubscribe', { sids: [sid] });
    for (const ticker of subscription.tickers) {
      this.subscriptions.forget(subscription.channel, ticker);
      this.books.get(ticker)?.book.forget();
      this.forgetLatest('orderbook_delta', ticker);
      this.fail(
        'orderbook_delta',
        ticker,
        new PredgateError('NETWORK_ERROR', `${this.options.venue}: ${why(ticker)}; resubscribing`, { exchange: this.options.venue, retryable: true }),
      );
    }
    this.subscriptions.scheduleFlush();
  }

  private snapshot(msg: Record<string, unknown>): void {
    const ticker = String(msg.market_ticker);
    const market = this.books.get(ticker);
    if (!market) return;
    const yes = ladder(msg, 'yes');
    const no = ladder(msg, 'no');
    if (
      !yes ||
      !no ||
      !market.book.snapshot(
        yes,
        no.map(({ price, size }) => ({ price: complement(price), size })),
      )
    ) {
      market.book.forget();
      this.forgetLatest('orderbook_delta', ticker);
      this.fail('orderbook_delta', ticker, this.drift(`an orderbook_snapshot of ${ticker.slice(0, 100)} with unreadable levels`));
      return;
    }
    market.timestamp = this.options.clock.now();
    this.deliver(ticker, market);
  }

  private delta(sid: number | undefined, msg: Record<string, unknown>): void {
    const ticker = String(msg.market_ticker);
    const market = this.books.get(ticker);
    if (!market?.book.known) return;
    const price = toNumber(msg.price_dollars) ?? centsOf(msg.price);
    const delta = toNumber(msg.delta_fp) ?? toNumber(msg.delta);
    const side = msg.side;
    if (price === undefined || !(price >= 0 && price <= 1) || delta === undefined || (side !== 'yes' && side !== 'no')) {
      // The book missed a change it cannot apply: it is read again from a fresh snapshot.
      this.fail('orderbook_delta', ticker, this.drift('an orderbook_delta without price, delta or side'));
      if (sid !== undefined) this.resync(sid, (named) => `a change of ${named} could not be read`);
      return;
    }
    const levels = side === 'yes' ? 'bids' : 'asks';
    const at = side === 'yes' ? roundPrice(price) : complement(price);
    const size = Math.max(0, Math.round((market.book[levels].sizeAt(at) + delta) * 100) / 100);
    market.book.delta(levels, { price: at, size });
    market.timestamp = timeOf(msg.ts) ?? this.options.clock.now();
    this.deliver(ticker, market);
  }

  private trade(msg: Record<string, unknown>): void {
    const ticker = String(msg.market_ticker);
    if (!this.watched('trade', ticker)) return;
    const yesPrice = toNumber(msg.yes_price_dollars) ?? centsOf(msg.yes_price);
    const amount = toNumber(msg.count_fp) ?? toNumber(msg.count);
    if (yesPrice === undefined || amount === undefined || !(amount > 0)) {
      this.fail('trade', ticker, this.drift('a trade without price or count'));
      return;
    }
    const noPrice = toNumber(msg.no_price_dollars) ?? centsOf(msg.no_price) ?? complement(yesPrice);
    const taker = msg.taker_outcome_side ?? msg.taker_side;
    const timestamp = timeOf(msg.ts) ?? this.options.clock.now();
    this.publish('trade', ticker, (side) => [
      {
        id: String(msg.trade_id ?? `${ticker}-${timestamp}`),
        timestamp,
        price: roundPrice(side === 'yes' ? yesPrice : noPrice),
        amount,
        side: taker === side ? 'buy' : taker === 'yes' || taker === 'no' ? 'sell' : 'unknown',
        outcomeId: outcomeIdOf(ticker, side),
      },
    ]);
  }

  /**
   * The venue refused a command: a bad ticker ends its watches with OUTCOME_NOT_FOUND (what is watched is an
   * outcome, `<ticker>` or `<ticker>-NO`); anything else is reported and retried on the next flush or connection.
   */
  private answeredWithError(id: number | undefined, msg: Record<string, unknown>): void {
    const command = id === undefined ? undefined : this.commands.get(id);
    const text = String(msg.msg ?? 'error');
    const detail = { venueCode: msg.code };
    if (!command) {
      this.broadcast(this.venueError(text, detail));
      return;
    }
    this.commands.delete(id!);
    const refusal = this.refusal(text, command.tickers, msg.code === 16 || /market|ticker/i.test(text), detail);
    // Code 9 is a refusal the venue repeats whatever is asked again.
    const error = msg.code === 9 ? new PredgateError(refusal.code, refusal.message, { exchange: this.options.venue, retryable: false, detail }) : refusal;
    this.refused(command.channel, command.tickers, error);
  }

  private deliver(ticker: string, market: MarketBook): void {
    const yes = market.book.toOrderBook({ timestamp: market.timestamp, isNegRisk: false, sourceMetadata: { ticker, side: 'yes', source: 'stream' } });
    this.publish('orderbook_delta', ticker, yesNoViews(yes), true);
  }
}

function jsonRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * A snapshot ladder of bids to buy `side`: `<side>_dollars_fp` (dollar and count
 * strings), else `<side>_dollars`, else legacy cents; none is an empty side.
 * Undefined when a level cannot be read.
 */
function ladder(msg: Record<string, unknown>, side: ContractSide): Array<{ price: number; size: number }> | undefined {
  const dollars = msg[`${side}_dollars_fp`] ?? msg[`${side}_dollars`];
  const cents = msg[side];
  const rows = Array.isArray(dollars) ? dollars : Array.isArray(cents) ? cents : [];
  const levels: Array<{ price: number; size: number }> = [];
  for (const row of rows as unknown[]) {
    if (!Array.isArray(row)) return undefined;
    const price = Array.isArray(dollars) ? toNumber(row[0]) : centsOf(row[0]);
    const size = toNumber(row[1]);
    if (price === undefined || size === undefined || !(price >= 0 && price <= 1) || !(size >= 0)) return undefined;
    levels.push({ price: roundPrice(price), size });
  }
  return levels;
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
