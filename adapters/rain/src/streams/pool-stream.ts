import { VenueStream, createFeed, fromBaseUnits, toEpochMs, toFraction } from '@predgate/core';
import type { VenueStreamOptions, Feed, FeedListener, Trade, SocketIoConnection } from '@predgate/core';

/** `url`: the Socket.IO root (Rain's REST host, `wss://prod-api.rain.one`); the venue's Engine.IO pings are answered as they come, `pingIntervalMs` paces websocket pings from our side. */
export type RainStreamOptions = VenueStreamOptions;

/** Rain's pool events live on the default namespace. */
const namespace = '/';

/** One watcher of one option of a pool. */
export interface OptionWatch {
  poolId: string;
  /** The option's on-chain index (`choiceIndex`, else its place), as in the outcome id. */
  choice: number;
  /** The pool's collateral decimals from the REST pool (`token.tokenDecimals`, else 6), used when an event names none. */
  decimals: number;
  /** The outcome id the trades carry. */
  outcomeId: string;
}

/**
 * Rain's live pool events for one adapter instance: Socket.IO v4 (Engine.IO
 * frames over one `ws` connection) on the REST host's default namespace. The
 * venue has no subscribe message: every client receives every pool's
 * `enter-option/{poolId}` (AMM buys) and `order-filled/{poolId}` (limit-order
 * fills), and the events of pools nobody watches are dropped here. The
 * connection opens with the first watcher and closes with the last. Each
 * event becomes trades priced as `fetchTrades` prices them: an AMM entry is a
 * buy at the collateral paid per share; a resting buy order filled is the
 * taker selling, a resting sell order filled the taker buying, at the order's
 * price; share and collateral amounts are integers of the pool's token
 * decimals. The venue's Engine.IO pings are answered, a connection silent for
 * longer than its ping interval plus timeout is dropped, and a dropped
 * connection is redialled with backoff.
 */
export class RainStream extends VenueStream<{ pool: Trade[] }, OptionWatch> {
  protected readonly connection: SocketIoConnection;

  constructor(private readonly options: RainStreamOptions) {
    super(options.venue, ['pool']);
    this.connection = this.socketIo(options, namespace, (name, payload) => this.event(name, payload));
  }

  /** Pool ids watched now (for tests and status). */
  get poolIds(): string[] {
    return this.watchedKeys('pool');
  }

  /** Whether a connection is open or being dialled (for tests). */
  get connected(): boolean {
    return this.connection.active;
  }

  watchTrades(option: OptionWatch): Feed<Trade[]> {
    return createFeed((emit) => this.attach(option, emit));
  }

  /** Adds a watcher of an option; the returned function takes it away again. */
  attach(option: OptionWatch, emit: FeedListener<Trade[]>): () => void {
    return this.watch('pool', option.poolId, option, emit);
  }

  /** Every client hears every pool: there is nothing to ask for. */
  protected subscribe(): void {}

  protected unsubscribe(): void {}

  private event(name: string, payload: unknown): void {
    const match = /^(enter-option|order-filled)\/([^/]+)$/.exec(name);
    if (!match) return;
    const [, kind, poolId] = match as unknown as [string, 'enter-option' | 'order-filled', string];
    if (!this.watched('pool', poolId)) return;
    const read = kind === 'enter-option' ? readEntry(payload) : readFill(payload);
    if (typeof read === 'string') {
      this.fail('pool', poolId, this.drift(`an ${kind} event for pool ${poolId.slice(0, 40)} ${read}`));
      return;
    }
    this.publish('pool', poolId, (watcher) => {
      const trades = read.prints
        .filter((print) => print.choice === watcher.choice)
        .flatMap((print): Trade[] => {
          const decimals = read.decimals ?? watcher.decimals;
          const amount = fromBaseUnits(print.shares, decimals)!;
          const price = print.price ?? toFraction(Number(print.collateral) / Number(print.shares));
          if (!(amount > 0) || price === undefined) return [];
          return [{ id: print.id, timestamp: read.timestamp ?? this.options.clock.now(), price, amount, side: print.side, outcomeId: watcher.outcomeId }];
        });
      return trades.length > 0 ? trades : undefined;
    });
  }
}

/** One print of an event: shares (and the collateral paid, for AMM buys) as base-unit integer strings. */
interface Print {
  id: string;
  choice: number;
  side: 'buy' | 'sell';
  shares: string;
  collateral?: string;
  /** A limit fill's price; AMM buys are priced collateral / shares. */
  price?: number;
}

interface Read {
  prints: Print[];
  decimals: number | undefined;
  timestamp: number | undefined;
}

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A non-negative base-unit integer (a decimal string or a safe integer number), as a string. */
function baseUnits(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  if (typeof value === 'string' && /^\d{1,78}$/.test(value.trim())) return value.trim();
  return undefined;
}

function choiceOf(value: unknown): number | undefined {
  const numeric = typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : value;
  return typeof numeric === 'number' && Number.isInteger(numeric) && numeric >= 0 ? numeric : undefined;
}

/** The pool's token decimals when the event carries the pool (`pool.token.tokenDecimals`); a present but unreadable value is an error. */
function decimalsOf(payload: Loose): number | undefined | string {
  const token = isObject(payload.pool) ? payload.pool.token : undefined;
  const value = isObject(token) ? token.tokenDecimals : undefined;
  if (value === undefined || value === null) return undefined;
  const decimals = Number(value);
  return Number.isInteger(decimals) && decimals >= 0 && decimals <= 36 ? decimals : 'whose pool.token.tokenDecimals is not a decimal count';
}

/**
 * `enter-option/{poolId}`: `{ pool, enterOption }`, where `enterOption`
 * holds the entries bought, `investment: [{ choiceIndex | option, amount |
 * investment, optionAmount }]`, or is itself one on-chain EnterOption
 * (`{ option, baseAmount, optionAmount }`). Each entry needs the shares
 * bought (`optionAmount`) as well as the collateral paid, since the price is
 * their ratio.
 */
function readEntry(payload: unknown): Read | string {
  if (!isObject(payload) || !isObject(payload.enterOption)) return 'without an enterOption object';
  const decimals = decimalsOf(payload);
  if (typeof decimals === 'string') return decimals;
  const entry = payload.enterOption;
  const id = String(entry._id ?? entry.id ?? entry.transactionHash ?? entry.trxHash ?? '');
  if (id === '') return 'without an id (_id or transactionHash)';
  const rows: Loose[] = Array.isArray(entry.investment) ? (entry.investment as unknown[]).filter(isObject) : [entry];
  if (Array.isArray(entry.investment) && rows.length !== entry.investment.length) return 'whose investment holds a non-object';
  const prints: Print[] = [];
  for (const [at, row] of rows.entries()) {
    const choice = choiceOf(row.choiceIndex ?? row.option);
    const collateral = baseUnits(row.baseAmount ?? row.amount ?? row.investment);
    const shares = baseUnits(row.optionAmount ?? entry.optionAmount);
    if (choice === undefined) return 'with an entry without its option (choiceIndex or option)';
    if (collateral === undefined) return 'with an entry whose collateral (amount) is not a base-unit integer';
    if (shares === undefined) return 'with an entry without the shares bought (optionAmount) as a base-unit integer';
    if (BigInt(shares) === 0n) continue;
    prints.push({ id: rows.length > 1 ? `${id}:${at}` : id, choice, side: 'buy', shares, collateral });
  }
  return { prints, decimals, timestamp: toEpochMs((entry.createdAt ?? entry.blockTimestamp) as string | number | undefined) };
}

/**
 * `order-filled/{poolId}`: `{ pool, filledOrder | order }`, the resting order
 * filled: `{ _id, orderType: buy | sell, option, pricePerShare (a plain
 * decimal) | orderPrice (1e18-scaled), filledQuantity | optionAmount |
 * quantity (shares in base units) }`. A resting buy filled is the taker
 * selling, a resting sell filled the taker buying.
 */
function readFill(payload: unknown): Read | string {
  if (!isObject(payload)) return 'that is not an object';
  const order = isObject(payload.filledOrder) ? payload.filledOrder : isObject(payload.order) ? payload.order : undefined;
  if (!order) return 'without a filledOrder object';
  const decimals = decimalsOf(payload);
  if (typeof decimals === 'string') return decimals;
  const id = String(order._id ?? order.id ?? order.transactionHash ?? '');
  if (id === '') return 'without an order id (_id)';
  const type = String(order.orderType ?? '').toLowerCase();
  if (type !== 'buy' && type !== 'sell') return 'whose orderType is neither buy nor sell';
  const choice = choiceOf(order.option ?? order.orderOption ?? order.choiceIndex);
  if (choice === undefined) return 'without its option';
  const scaled = baseUnits(order.orderPrice);
  const price = scaled !== undefined ? toFraction(fromBaseUnits(scaled, 18)) : decimalPrice(order.pricePerShare);
  if (price === undefined) return 'whose price (pricePerShare or orderPrice) is not a price between 0 and 1';
  const shares = baseUnits(order.filledQuantity ?? order.optionAmount ?? order.quantity);
  if (shares === undefined) return 'whose filled shares (filledQuantity, optionAmount or quantity) are not a base-unit integer';
  const prints: Print[] = BigInt(shares) === 0n ? [] : [{ id, choice, side: type === 'buy' ? 'sell' : 'buy', shares, price }];
  return { prints, decimals, timestamp: toEpochMs((order.updatedAt ?? order.createdAt) as string | number | undefined) };
}

function decimalPrice(value: unknown): number | undefined {
  const numeric = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(numeric) && numeric > 0 && numeric <= 1 ? numeric : undefined;
}
