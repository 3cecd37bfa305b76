import { isPredgateError } from '../errors.js';
import type { VenueAdapter } from '../methods/adapter.js';
import { adapterMethod } from '../methods/capabilities.js';
import type { Event, Market, OrderBook } from '../model/index.js';
import type { TestFunction } from './conformance.js';

/**
 * The round-trip law: every id an adapter hands out is accepted back. For the
 * events a list call returns, `fetchEvent` by `id` and by `slug` returns the
 * same event; for their markets, `fetchMarket` by `marketId` (and by `slug`
 * where markets have one) returns the same market; every outcome's id alone
 * is enough for `fetchOrderBook`, `fetchTrades` and `fetchOHLCV`; and a binary
 * market's id with `outcome: 'yes' | 'no'` names the same books as its yes/no
 * outcome ids. An adapter that cannot honour a call refuses it with
 * NOT_SUPPORTED; any other error is a broken law, named by method and id.
 */
export interface RoundTripOptions {
  /** Names the adapter in the test title. */
  name: string;
  create: () => VenueAdapter;
  /** Arguments of the list call whose ids are checked. */
  events?: Record<string, unknown>;
  /** How many events, and markets per event, are followed (each costs lookups in the fixtures). */
  sample?: { events?: number; markets?: number };
}

export function runRoundTripLaw(test: TestFunction, options: RoundTripOptions): void {
  test(`${options.name}: every id handed out is accepted back`, async () => {
    const adapter = options.create();
    try {
      const violations = await checkRoundTrip(adapter, options);
      if (violations.length > 0) throw new Error(`${options.name} round trip:\n  - ${violations.join('\n  - ')}`);
    } finally {
      await adapter.close?.();
    }
  });
}

type Call = (...args: unknown[]) => Promise<unknown>;

/** The violations of the law on one adapter; empty when it holds. */
export async function checkRoundTrip(adapter: VenueAdapter, options: Omit<RoundTripOptions, 'name' | 'create'> = {}): Promise<string[]> {
  const violations: string[] = [];
  const method = (name: string) => adapterMethod(adapter, name) as Call | undefined;
  const listEvents = method('fetchEvents');
  if (!listEvents) return violations;
  const events = ((await listEvents(options.events ?? { limit: 3 })) as Event[]).slice(0, options.sample?.events ?? 3);

  // A refusal is honest only as NOT_SUPPORTED; anything else blames the caller for an id the adapter gave out.
  const attempt = async <T>(label: string, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      if (isPredgateError(error) && error.code === 'NOT_SUPPORTED') return undefined;
      const reason = isPredgateError(error) ? `${error.code}: ${error.message}` : String(error);
      violations.push(`${label} failed: ${reason}`);
      return undefined;
    }
  };
  const expectSame = (label: string, actual: unknown, field: string, expected: string) => {
    const got = (actual as Record<string, unknown> | undefined)?.[field];
    if (actual !== undefined && got !== expected) violations.push(`${label} returned ${field} "${String(got)}", not "${expected}"`);
  };

  const fetchEvent = method('fetchEvent');
  const fetchMarket = method('fetchMarket');
  for (const event of events) {
    if (fetchEvent) {
      const byId = `fetchEvent({ eventId: "${event.id}" })`;
      expectSame(byId, await attempt(byId, () => fetchEvent({ eventId: event.id })), 'id', event.id);
      if (event.slug) {
        const bySlug = `fetchEvent({ slug: "${event.slug}" })`;
        expectSame(bySlug, await attempt(bySlug, () => fetchEvent({ slug: event.slug })), 'id', event.id);
      }
    }
    for (const market of event.markets.slice(0, options.sample?.markets ?? 2)) {
      if (fetchMarket) {
        const byId = `fetchMarket({ marketId: "${market.marketId}" })`;
        expectSame(byId, await attempt(byId, () => fetchMarket({ marketId: market.marketId })), 'marketId', market.marketId);
        if (market.slug) {
          const bySlug = `fetchMarket({ slug: "${market.slug}" })`;
          expectSame(bySlug, await attempt(bySlug, () => fetchMarket({ slug: market.slug })), 'marketId', market.marketId);
        }
      }
      await checkOutcomes(market, method, attempt, violations);
    }
  }
  return violations;
}

async function checkOutcomes(
  market: Market,
  method: (name: string) => Call | undefined,
  attempt: <T>(label: string, run: () => Promise<T>) => Promise<T | undefined>,
  violations: string[],
): Promise<void> {
  const fetchOrderBook = method('fetchOrderBook');
  const fetchTrades = method('fetchTrades');
  const fetchOHLCV = method('fetchOHLCV');
  const books = new Map<string, OrderBook>();
  for (const outcome of market.outcomes) {
    const id = outcome.outcomeId;
    if (fetchOrderBook) {
      const book = await attempt(`fetchOrderBook("${id}")`, () => fetchOrderBook(id) as Promise<OrderBook>);
      if (book) books.set(id, book);
    }
    if (fetchTrades) await attempt(`fetchTrades("${id}")`, () => fetchTrades(id, { limit: 10 }));
    if (fetchOHLCV) await attempt(`fetchOHLCV("${id}")`, () => fetchOHLCV(id, { resolution: '1h', limit: 5 }));
  }
  if (!fetchOrderBook) return;
  for (const side of ['yes', 'no'] as const) {
    const outcome = market[side];
    const byOutcome = outcome && books.get(outcome.outcomeId);
    if (!byOutcome) continue;
    const label = `fetchOrderBook("${market.marketId}", null, { outcome: "${side}" })`;
    const byMarket = await attempt(label, () => fetchOrderBook(market.marketId, undefined, { outcome: side }) as Promise<OrderBook>);
    if (byMarket && !sameLevels(byMarket, byOutcome)) {
      violations.push(`${label} is not the book of ${side} outcome "${outcome.outcomeId}"`);
    }
  }
}

function sameLevels(a: OrderBook, b: OrderBook): boolean {
  return JSON.stringify([a.bids, a.asks]) === JSON.stringify([b.bids, b.asks]);
}
