import { PredgateError, bookToDepth, defineAdapter, eventListPredicate, marketListPredicate, offsetWindow, orderControls, resolutionMs } from '@predgate/core';
import type {
  AdapterContext,
  Clock,
  Event,
  EventFetchParams,
  Market,
  MarketFetchParams,
  OrderBook,
  OrderBookParams,
  OrderHistoryParams,
  Page,
  StatusFilter,
  VenueProfile,
} from '@predgate/core';
import { SimulatedAccount } from './simulation/account.js';
import { generateCatalog, venueId } from './simulation/catalog.js';
import type { SimulatedCatalog } from './simulation/catalog.js';
import { simulateBook, simulateCandles, simulateTrades } from './simulation/market-data.js';
import { priceOf } from './simulation/catalog.js';
import { tickingBook, tickingTrades } from './streams/ticks.js';

export interface MockConfig {
  /** Same seed, same venue. */
  seed: string;
  events: number;
  startingCash: number;
  /** How often the simulated streams tick, in ms. */
  tickMs: number;
}

export const defaultMockConfig: MockConfig = { seed: 'predgate', events: 2_000, startingCash: 10_000, tickMs: 1_000 };

/** Page size when a list call gives no `limit`: a whole 2,000-event venue is megabytes of JSON. */
const defaultPageSize = 100;
const tradesKept = 200;

const profile: VenueProfile = {
  displayName: 'Mock (simulated venue)',
  hosts: { web: 'https://mock.predgate.dev' },
  rateLimit: null,
  // No credentials are needed: each distinct credentials object simply gets its own simulated account.
  credentials: { required: [], optional: ['apiKey'] },
  // Simulated, every one: the book decides crossing, fills and slippage; expiry is checked at submit.
  orderControls: [...orderControls],
};

/**
 * The simulated venue. A real adapter has the same shape: read methods that
 * call the venue and normalise its answers, account methods that sign their
 * calls with `context.credentials`, and the shared behaviour of
 * `@predgate/core` (lookups, filters, execution price) wherever the venue has
 * nothing better. Here the "venue" is the simulation in `./simulation`.
 */
export function createMockAdapter(context: AdapterContext, config: MockConfig) {
  const { clock } = context;
  let catalog: SimulatedCatalog | undefined;
  // Generated on first use, not here: a gateway serving the mock venue from its catalog on disk does not
  // generate the simulation's thousands of events at start.
  const venue: SimulatedVenue = {
    get catalog() {
      return (catalog ??= sharedCatalog(config, clock.now()));
    },
    clock,
  };
  const account = new SimulatedAccount(venue, (outcomeId) => bookOf(venue, outcomeId), clock, config.startingCash);

  return defineAdapter({
    id: venueId,
    profile,
    // Built from the simulation's other answers; fetchEvent, fetchMarket, the filters and the execution
    // price come from @predgate/core, which builds them for every adapter that lists events and markets.
    emulated: ['fetchEventsPaginated', 'fetchMarketsPaginated', 'fetchOrderBooks'],

    // Catalog reads
    fetchEvents: async (params = {}) => pageOf(selectEvents(venue, params), params).data,
    fetchEventsPaginated: async (params = {}) => pageOf(selectEvents(venue, { filter: params.filter, status: params.status, series: params.series }), params),
    fetchMarkets: async (params = {}) => pageOf(selectMarkets(venue, params), params).data,
    fetchMarketsPaginated: async (params = {}) => pageOf(selectMarkets(venue, { filter: params.filter, status: params.status, series: params.series }), params),

    async fetchEventMetadata(eventTicker) {
      const event = venue.catalog.event(eventTicker);
      if (!event) throw new PredgateError('EVENT_NOT_FOUND', `Event not found: ${eventTicker}`, { exchange: venueId });
      return {
        eventId: event.id,
        slug: event.slug,
        ...event.sourceMetadata,
        marketCount: event.markets.length,
        rules: event.description,
        settlementSources: [{ name: 'Predgate simulation', url: event.url }],
      };
    },

    async fetchSeries(params = {}) {
      const query = params.query?.toLowerCase();
      const series = venue.catalog.series.filter(
        (item) =>
          (params.id === undefined || item.id === params.id) &&
          (params.slug === undefined || item.slug === params.slug) &&
          (params.recurrence === undefined || item.recurrence === params.recurrence) &&
          (params.category === undefined || item.category?.toLowerCase() === params.category.toLowerCase()) &&
          (query === undefined || item.title.toLowerCase().includes(query)),
      );
      return pageOf(series, params).data;
    },

    // Market data
    fetchOrderBook: async (id, limit, params = {}) => bookToDepth(bookOf(venue, resolveOutcome(venue, id, params)), limit ?? params.limit),
    fetchOrderBooks: async (outcomeIds) => Object.fromEntries(outcomeIds.map((outcomeId) => [outcomeId, bookOf(venue, outcomeId)])),

    async fetchTrades(outcomeId, params = {}) {
      const { outcome } = outcomeOf(venue, outcomeId);
      const start = params.start?.getTime() ?? -Infinity;
      const end = params.end?.getTime() ?? Infinity;
      return simulateTrades(outcome, clock.now(), tradesKept)
        .filter((trade) => trade.timestamp >= start && trade.timestamp <= end)
        .slice(0, params.limit ?? defaultPageSize);
    },

    async fetchOHLCV(outcomeId, params) {
      const { outcome } = outcomeOf(venue, outcomeId);
      const step = resolutionMs(params.resolution);
      const limit = params.limit ?? defaultPageSize;
      const end = params.end?.getTime() ?? clock.now();
      const start = params.start?.getTime() ?? end - step * (limit - 1);
      return simulateCandles(outcome, step, start, end, limit);
    },

    // Streams: simulated ticks
    watchOrderBook: (outcomeId) => tickingBook(outcomeId, () => bookOf(venue, outcomeId), clock, config.tickMs),
    watchTrades(outcomeId, address) {
      if (address !== undefined) throw new PredgateError('NOT_SUPPORTED', 'The mock venue has no wallets to watch', { exchange: venueId });
      return tickingTrades(outcomeId, () => priceOf(outcomeOf(venue, outcomeId).outcome), clock, config.tickMs);
    },

    // Account
    createOrder: async (params) => account.place(params),

    async buildOrder(params) {
      outcomeOf(venue, params.outcomeId);
      const expiresAt = clock.now() + 60_000;
      return { exchange: venueId, params, signedOrder: { ...params, expiresAt }, raw: { params, expiresAt } };
    },

    async submitOrder(built) {
      const expiresAt = Number(built.raw.expiresAt);
      if (built.exchange !== venueId || !Number.isFinite(expiresAt)) {
        throw new PredgateError('INVALID_ORDER', 'Not an order built by the mock venue', { exchange: venueId });
      }
      const expiry = built.expiry ?? built.params.expiry;
      if (expiry !== undefined && new Date(expiry).getTime() < clock.now()) {
        throw new PredgateError('BUILT_ORDER_EXPIRED', 'The order’s expiry has passed: it was not placed', {
          exchange: venueId,
          detail: { expiry: new Date(expiry).toISOString() },
        });
      }
      if (expiresAt < clock.now()) {
        throw new PredgateError('BUILT_ORDER_EXPIRED', 'The built order has expired: build it again', {
          exchange: venueId,
          detail: { expiry: new Date(expiresAt).toISOString() },
        });
      }
      return account.place(built.params);
    },

    cancelOrder: async (orderId) => account.cancel(orderId),
    fetchOrder: async (orderId) => account.order(orderId),
    fetchOpenOrders: async (marketId) =>
      account.allOrders().filter((order) => order.status === 'open' && (marketId === undefined || order.marketId === marketId)),
    fetchClosedOrders: async (params = {}) =>
      history(
        account.allOrders().filter((order) => order.status !== 'open' && order.status !== 'pending'),
        params,
      ),
    fetchAllOrders: async (params = {}) => history(account.allOrders(), params),
    fetchMyTrades: async (params = {}) =>
      history(
        account.fills().filter((trade) => params.outcomeId === undefined || trade.outcomeId === params.outcomeId),
        params,
      ),
    fetchPositions: async () => account.positions(),
    fetchBalance: async () => [account.balance()],
  });
}

export type MockAdapter = ReturnType<typeof createMockAdapter>;

/** What the simulated venue's reads share: one day's catalog and the clock. */
interface SimulatedVenue {
  readonly catalog: SimulatedCatalog;
  clock: Clock;
}

function selectEvents({ catalog }: SimulatedVenue, params: EventFetchParams): Event[] {
  const tests: Array<(event: Event) => boolean> = [];
  if (params.eventId !== undefined) tests.push((event) => event.id === params.eventId);
  if (params.slug !== undefined) tests.push((event) => event.slug === params.slug);
  if (params.series !== undefined) tests.push((event) => event.sourceMetadata?.series === params.series);
  const listed = eventListPredicate(params);
  if (listed) tests.push(listed);
  const pool = byStatus(catalog.events, params.status);
  const events = tests.length === 0 ? pool : pool.filter((event) => tests.every((test) => test(event)));
  return sortBy(events, params.sort, (event) => ({
    liquidity: event.markets.reduce((sum, market) => sum + market.liquidity, 0),
    createdAt: String(event.sourceMetadata?.createdAt ?? ''),
  }));
}

function selectMarkets({ catalog }: SimulatedVenue, params: MarketFetchParams): Market[] {
  const tests: Array<(market: Market) => boolean> = [];
  if (params.outcomeId !== undefined) {
    const holder = catalog.outcome(params.outcomeId)?.market.marketId;
    tests.push((market) => market.marketId === holder);
  }
  if (params.marketId !== undefined) tests.push((market) => market.marketId === params.marketId);
  if (params.eventId !== undefined) tests.push((market) => market.eventId === params.eventId);
  if (params.slug !== undefined) tests.push((market) => market.slug === params.slug);
  if (params.series !== undefined) tests.push((market) => catalog.event(market.eventId!)?.sourceMetadata?.series === params.series);
  const listed = marketListPredicate(params);
  if (listed) tests.push(listed);
  const pool = byStatus(catalog.markets, params.status);
  const markets = tests.length === 0 ? pool : pool.filter((market) => tests.every((test) => test(market)));
  return sortBy(markets, params.sort, (market) => ({
    liquidity: market.liquidity,
    createdAt: String(catalog.event(market.eventId!)?.sourceMetadata?.createdAt ?? ''),
  }));
}

/** The outcome a book request names: an outcome id, or a market id with `outcome` or `side`. */
function resolveOutcome(venue: SimulatedVenue, id: string, params: OrderBookParams): string {
  const market = venue.catalog.market(id);
  if (!market) {
    outcomeOf(venue, id);
    return id;
  }
  const wanted = params.outcome ?? params.side;
  if (wanted === 'yes' || wanted === 'no') {
    const outcome = market[wanted];
    if (!outcome) {
      throw new PredgateError('VALIDATION_ERROR', `Market ${id} has ${market.outcomes.length} outcomes: name one by id, not "${wanted}"`, {
        exchange: venueId,
        detail: { argument: 'params', path: 'params.outcome' },
      });
    }
    return outcome.outcomeId;
  }
  if (wanted !== undefined && market.outcomes.some((outcome) => outcome.outcomeId === wanted)) return wanted;
  throw new PredgateError('VALIDATION_ERROR', `${id} is a market id: choose its book with params.outcome (yes, no or an outcome id)`, {
    exchange: venueId,
    detail: { argument: 'params', path: 'params.outcome' },
  });
}

function outcomeOf({ catalog }: SimulatedVenue, outcomeId: string) {
  const found = catalog.outcome(outcomeId);
  if (!found) throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome not found: ${outcomeId}`, { exchange: venueId });
  return found;
}

function bookOf(venue: SimulatedVenue, outcomeId: string): OrderBook {
  const { outcome, market } = outcomeOf(venue, outcomeId);
  if (market.status !== 'active') {
    throw new PredgateError('NOT_FOUND', `No orderbook exists for ${outcomeId}: the market is ${market.status}`, {
      exchange: venueId,
    });
  }
  return simulateBook(outcome, market, venue.clock.now());
}

// Every adapter instance (one per set of credentials) reads the same simulated catalog: by seed and
// event count, then by UTC day.
const catalogs = new Map<string, Map<number, SimulatedCatalog>>();

function sharedCatalog(config: MockConfig, now: number): SimulatedCatalog {
  const venueKey = `${config.seed}:${config.events}`;
  const day = Math.floor(now / 86_400_000);
  let byDay = catalogs.get(venueKey);
  if (!byDay) {
    byDay = new Map();
    catalogs.set(venueKey, byDay);
  }
  let catalog = byDay.get(day);
  if (!catalog) {
    catalog = generateCatalog({ seed: config.seed, eventCount: config.events, now });
    // A server running for days would otherwise keep every day's catalog; instances made earlier keep theirs.
    for (const earlier of byDay.keys()) if (earlier < day) byDay.delete(earlier);
    byDay.set(day, catalog);
  }
  return catalog;
}

/** `active` (the default): still trading; `closed`/`inactive`: no longer trading; `all`: no filter. */
function byStatus<T extends Event | Market>(items: T[], status: StatusFilter = 'active'): T[] {
  if (status === 'all') return items;
  const lists = (statusLists.get(items) as { active: T[]; closed: T[] } | undefined) ?? splitByStatus(items);
  return status === 'active' ? lists.active : lists.closed;
}

// Lists are split once per catalog: an unfiltered page is then a slice.
const statusLists = new WeakMap<object, { active: unknown[]; closed: unknown[] }>();

function splitByStatus<T extends Event | Market>(items: T[]): { active: T[]; closed: T[] } {
  const trading = (item: T) => ('markets' in item ? item.markets.some((market) => market.status === 'active') : item.status === 'active');
  const lists = { active: items.filter(trading), closed: items.filter((item) => !trading(item)) };
  statusLists.set(items, lists);
  return lists;
}

function sortBy<T extends { volume24h: number }>(items: T[], sort: EventFetchParams['sort'], keys: (item: T) => { liquidity: number; createdAt: string }): T[] {
  // The catalog is already in volume order.
  if (sort === undefined || sort === 'volume') return items;
  const keyed = items.map((item) => ({ item, ...keys(item) }));
  keyed.sort(sort === 'liquidity' ? (a, b) => b.liquidity - a.liquidity : (a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  return keyed.map(({ item }) => item);
}

function history<T extends { marketId?: string; timestamp: number }>(items: T[], params: OrderHistoryParams): T[] {
  const since = params.since?.getTime() ?? -Infinity;
  const until = params.until?.getTime() ?? Infinity;
  const selected = items.filter(
    (item) => (params.marketId === undefined || item.marketId === params.marketId) && item.timestamp >= since && item.timestamp <= until,
  );
  return pageOf(selected, params).data;
}

/** The page a `limit`/`offset`/`cursor` request selects from a list already filtered and sorted. */
function pageOf<T>(items: T[], params: { limit?: number; offset?: number; cursor?: string }): Page<T> {
  const { start, end, nextCursor } = offsetWindow(items.length, params, defaultPageSize, venueId);
  return { data: items.slice(start, end), total: items.length, ...(nextCursor ? { nextCursor } : {}) };
}
