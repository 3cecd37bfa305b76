import type { AdapterMethodName, VenueAdapter } from '../methods/adapter.js';
import { adapterMethod, ownMethodNames } from '../methods/capabilities.js';
import { coreMethods } from '../methods/method-list.js';
import type { MethodList } from '../methods/registry.js';
import { createMethodRegistry } from '../methods/registry.js';
import type { CreateOrderParams, Event, Market, Order, OrderBook, Outcome } from '../model/index.js';
import { venueProfileSchema } from '../model/index.js';
import { firstPayload } from '../streaming/feed.js';
import type { Feed } from '../streaming/feed.js';
import { checkResult } from './invariants.js';

/** The test runner's `test` (vitest, node:test, jest): the kit registers tests, it runs none itself. */
export type TestFunction = (name: string, body: () => Promise<void>) => void;

/** Lazily discovered data of the adapter under test, for building arguments. */
export interface Discovery {
  adapter: VenueAdapter;
  events(): Promise<Event[]>;
  event(): Promise<Event>;
  markets(): Promise<Market[]>;
  market(): Promise<Market>;
  outcome(): Promise<Outcome>;
  book(): Promise<OrderBook>;
  /** A resting order placed for the test, where the adapter can place orders. */
  restingOrder(): Promise<Order>;
  /** An order that filled at once, so the account has a trade and a position. */
  filledOrder(): Promise<Order>;
}

export interface ConformanceCase {
  title?: string;
  args: unknown[] | ((discovery: Discovery) => unknown[] | Promise<unknown[]>);
  /** Further expectations on the result; each returned string is a failure. */
  check?: (result: unknown, args: unknown[]) => string[];
}

export interface ConformanceOptions {
  /** Names the adapter in test titles. */
  name: string;
  /** A fresh adapter per test; the first one made is asked for its capability map. */
  create: () => VenueAdapter;
  /** Calls per method; methods without cases get the kit's default calls. */
  cases?: Partial<Record<AdapterMethodName, ConformanceCase[]>>;
  list?: MethodList;
  /** How long a streaming method may take to deliver its first payload; default 5 s. */
  streamTimeoutMs?: number;
}

/**
 * Registers one test per method the adapter implements. Each calls the method
 * (with the given cases or the kit's defaults), checks the result against the
 * unified schema and invariants, and fails with every violation named by
 * method and field.
 */
export function runConformanceSuite(test: TestFunction, options: ConformanceOptions): void {
  const list: MethodList = options.list ?? coreMethods;
  const registry = createMethodRegistry(list);
  const probe = options.create();
  // What the adapter implements itself; what core derives for it is core's to test.
  const claimed = ownMethodNames(probe, list);

  test(`${options.name}: profile is complete`, async () => {
    const { error } = venueProfileSchema.validate(probe.profile, { abortEarly: false });
    if (error) throw new Error(`${options.name} profile: ${error.message}`);
    if (claimed.length === 0) throw new Error(`${options.name} implements none of the methods`);
    // A reason given for a method the adapter does implement, or for no method at all, would mislead callers.
    for (const name of Object.keys(probe.profile.unsupported ?? {})) {
      if (!registry.get(name)) throw new Error(`${options.name} profile: unsupported names "${name}", which is not a core method`);
      if (claimed.includes(name)) throw new Error(`${options.name} profile: unsupported gives a reason for ${name}, which the adapter implements`);
    }
  });

  for (const name of claimed) {
    test(`${options.name}: ${name} returns unified data`, async () => {
      const adapter = options.create();
      try {
        const cases = options.cases?.[name as AdapterMethodName] ?? defaultCases[name as AdapterMethodName];
        if (!cases || cases.length === 0) {
          throw new Error(`${name}: claimed by ${options.name}, but the test kit has no default call for it: give it a case`);
        }
        const discovery = discover(adapter);
        for (const [index, testCase] of cases.entries()) {
          const label = `${name}${testCase.title ? ` (${testCase.title})` : cases.length > 1 ? ` (case ${index + 1})` : ''}`;
          const given = typeof testCase.args === 'function' ? await testCase.args(discovery) : testCase.args;
          // Cases go through the same validation as a client's call, so they are calls a client could make.
          const { args } = registry.get(name)!.fromBody({ args: given });
          const answer = adapterMethod(adapter, name)!(...args);
          // A streaming method answers with a feed: its first payload is what the kit checks.
          const result = list[name]!.stream ? await firstPayload(answer as Feed<unknown>, options.streamTimeoutMs ?? 5_000) : await answer;
          const violations = [...checkResult(name, result, list), ...(testCase.check?.(result, args) ?? [])];
          if (violations.length > 0) {
            throw new Error(`${options.name} ${label}:\n  - ${violations.join('\n  - ')}`);
          }
        }
      } finally {
        await adapter.close?.();
      }
    });
  }
}

function discover(adapter: VenueAdapter): Discovery {
  const memo = <T>(load: () => Promise<T>): (() => Promise<T>) => {
    let value: Promise<T> | undefined;
    return () => (value ??= load());
  };
  const events = memo(async () => {
    if (!adapter.fetchEvents) throw new Error('discovery needs fetchEvents: give the case its arguments');
    return adapter.fetchEvents({ limit: 10 });
  });
  const markets = memo(async () => {
    if (adapter.fetchMarkets) return adapter.fetchMarkets({ limit: 10 });
    return (await events()).flatMap((event) => event.markets);
  });
  const first = <T>(items: T[], what: string): T => {
    if (items.length === 0) throw new Error(`discovery found no ${what}`);
    return items[0]!;
  };
  const market = memo(async () => {
    const found = await markets();
    return found.find((candidate) => candidate.outcomes.length === 2) ?? first(found, 'market');
  });
  const outcome = memo(async () => first((await market()).outcomes, 'outcome'));
  const book = memo(async () => {
    if (!adapter.fetchOrderBook) throw new Error('discovery needs fetchOrderBook: give the case its arguments');
    const answer = await adapter.fetchOrderBook(...(await bookArguments({ market, outcome })));
    return Array.isArray(answer) ? first(answer, 'order book') : answer;
  });
  const place = (price: number) =>
    memo(async () => {
      if (!adapter.createOrder) throw new Error('discovery needs createOrder: give the case its arguments');
      return adapter.createOrder({ ...(await restingOrderParams({ market, outcome })), price });
    });
  return {
    adapter,
    events,
    event: memo(async () => first(await events(), 'event')),
    markets,
    market,
    outcome,
    book,
    restingOrder: place(0.01),
    // Marketable: a limit buy at the top of the price range crosses any ask.
    filledOrder: place(0.99),
  };
}

/**
 * A book named as SPEC.md has it, market id plus the outcome: it works on
 * venues with a book per outcome and on venues with one book per market.
 */
async function bookArguments(discovery: Pick<Discovery, 'market' | 'outcome'>): Promise<[string, undefined, { outcome: string }]> {
  return [(await discovery.market()).marketId, undefined, { outcome: (await discovery.outcome()).outcomeId }];
}

/** A buy far below the market, so it rests instead of filling. */
async function restingOrderParams(discovery: Pick<Discovery, 'market' | 'outcome'>): Promise<CreateOrderParams> {
  const market = await discovery.market();
  const outcome = await discovery.outcome();
  return { marketId: market.marketId, outcomeId: outcome.outcomeId, side: 'buy', type: 'limit', price: 0.01, amount: 1 };
}

const atMost = (limit: number) => (result: unknown) =>
  Array.isArray(result) && result.length > limit ? [`data: asked for at most ${limit}, got ${result.length}`] : [];

const atLeastOne = (result: unknown) => (Array.isArray(result) && result.length > 0 ? [] : ['data: expected at least one item after placing an order']);

const sameId = (field: string, expected: () => unknown) => (result: unknown) => {
  const actual = (result as Record<string, unknown> | null)?.[field];
  return actual === expected() ? [] : [`data.${field}: asked for "${String(expected())}", got "${String(actual)}"`];
};

function subsetOf(input: unknown[], key: string) {
  return (result: unknown) => {
    const ids = new Set(input.map((item) => (item as Record<string, unknown>)[key]));
    return (result as Array<Record<string, unknown>>).filter((item) => !ids.has(item[key])).map((item) => `data: "${String(item[key])}" was not in the input`);
  };
}

/** The kit's calls for methods whose adapter gives no cases of its own. */
const defaultCases: Record<AdapterMethodName, ConformanceCase[]> = {
  fetchEvents: [{ args: [{ limit: 3 }], check: atMost(3) }],
  fetchEvent: [
    {
      args: async (d) => [{ eventId: (await d.event()).id }],
      check: (result, [params]) => sameId('id', () => (params as { eventId: string }).eventId)(result),
    },
  ],
  fetchEventsPaginated: [{ args: [{ limit: 2 }], check: (result) => atMost(2)((result as { data: unknown[] }).data) }],
  fetchMarkets: [{ args: [{ limit: 3 }], check: atMost(3) }],
  fetchMarket: [
    {
      args: async (d) => [{ marketId: (await d.market()).marketId }],
      check: (result, [params]) => sameId('marketId', () => (params as { marketId: string }).marketId)(result),
    },
  ],
  fetchMarketsPaginated: [{ args: [{ limit: 2 }], check: (result) => atMost(2)((result as { data: unknown[] }).data) }],
  loadMarkets: [
    {
      args: [],
      check: (result) =>
        Object.entries(result as Record<string, { marketId?: unknown }>)
          .filter(([key, market]) => market.marketId !== key)
          .map(([key]) => `data.${key}: keyed by another market's id`),
    },
  ],
  fetchEventMetadata: [{ args: async (d) => [(await d.event()).id] }],
  fetchSeries: [{ args: [{ limit: 3 }], check: atMost(3) }],
  fetchOrderBook: [{ args: bookArguments }],
  fetchOrderBooks: [
    {
      args: async (d) => [(await d.market()).outcomes.map((outcome) => outcome.outcomeId)],
      check: (result, [ids]) =>
        Object.keys(result as object)
          .filter((key) => !(ids as string[]).includes(key))
          .map((key) => `data.${key}: was not asked for`),
    },
  ],
  watchOrderBook: [{ args: async (d) => [(await d.outcome()).outcomeId] }],
  watchOrderBooks: [
    {
      args: async (d) => [(await d.market()).outcomes.map((outcome) => outcome.outcomeId)],
      check: (result, [ids]) =>
        Object.keys(result as object)
          .filter((key) => !(ids as string[]).includes(key))
          .map((key) => `data.${key}: was not asked for`),
    },
  ],
  watchTrades: [{ args: async (d) => [(await d.outcome()).outcomeId] }],
  fetchTrades: [{ args: async (d) => [(await d.outcome()).outcomeId, { limit: 10 }], check: atMost(10) }],
  fetchOHLCV: [{ args: async (d) => [(await d.outcome()).outcomeId, { resolution: '1h', limit: 5 }], check: atMost(5) }],
  filterEvents: [
    {
      args: async (d) => [await d.events(), { text: (await d.event()).title }],
      check: (result, [events]) => {
        const violations = subsetOf(events as unknown[], 'id')(result);
        return (result as unknown[]).length === 0 ? [...violations, 'data: the event whose title was searched is missing'] : violations;
      },
    },
  ],
  filterMarkets: [
    {
      args: async (d) => [await d.markets(), { text: (await d.market()).title }],
      check: (result, [markets]) => {
        const violations = subsetOf(markets as unknown[], 'marketId')(result);
        return (result as unknown[]).length === 0 ? [...violations, 'data: the market whose title was searched is missing'] : violations;
      },
    },
  ],
  getExecutionPrice: [{ args: async (d) => [await d.book(), 'buy', 1] }],
  getExecutionPriceDetailed: [{ args: async (d) => [await d.book(), 'buy', 1] }],
  createOrder: [{ args: async (d) => [await restingOrderParams(d)] }],
  buildOrder: [{ args: async (d) => [await restingOrderParams(d)] }],
  submitOrder: [
    {
      args: async (d) => {
        if (!d.adapter.buildOrder) throw new Error('submitOrder needs buildOrder: give the case its arguments');
        return [await d.adapter.buildOrder(await restingOrderParams(d))];
      },
    },
  ],
  cancelOrder: [
    {
      args: async (d) => [(await d.restingOrder()).id],
      check: (result) => ((result as Order).status === 'cancelled' ? [] : [`data.status: expected "cancelled", got "${(result as Order).status}"`]),
    },
  ],
  fetchOrder: [
    {
      args: async (d) => [(await d.restingOrder()).id],
      check: (result, [id]) => sameId('id', () => id)(result),
    },
  ],
  fetchOpenOrders: [{ args: async (d) => (await d.restingOrder(), []), check: atLeastOne }],
  fetchClosedOrders: [{ args: async (d) => (await d.filledOrder(), []), check: atLeastOne }],
  fetchAllOrders: [{ args: async (d) => (await d.restingOrder(), await d.filledOrder(), []), check: atLeastOne }],
  fetchMyTrades: [{ args: async (d) => (await d.filledOrder(), []), check: atLeastOne }],
  fetchPositions: [{ args: async (d) => (await d.filledOrder(), []), check: atLeastOne }],
  fetchBalance: [{ args: [], check: atLeastOne }],
};
