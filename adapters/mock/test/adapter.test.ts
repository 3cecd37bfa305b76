import { adapterMethod, collectingDrift, createHttpClientFactory, fixedClock, isPredgateError, silentLogger } from '@predgate/core';
import type { AdapterContext, Event, OrderBook } from '@predgate/core';
import { checkResult, runConformanceSuite, runRoundTripLaw } from '@predgate/core/testkit';
import { beforeAll, describe, expect, test } from 'vitest';
import plugin from '../src/index.js';
import type { MockAdapter } from '../src/adapter.js';
import { priceOf } from '../src/simulation/catalog.js';

const now = Date.UTC(2026, 10, 22, 12);

function context(config: Record<string, unknown> = {}, clock = fixedClock(now)): AdapterContext {
  return { http: createHttpClientFactory(), logger: silentLogger, clock, config };
}

const create = (config?: Record<string, unknown>): MockAdapter => plugin.create(context(config));
/** A live book: the since/until form that answers a list of books is the gateway's (the archive), never the adapter's. */
const liveBook = (venue: MockAdapter, ...args: Parameters<MockAdapter['fetchOrderBook']>) => venue.fetchOrderBook(...args) as Promise<OrderBook>;

// Streams tick every 20 ms here, so the kit's first-payload check of watchTrades is quick.
runConformanceSuite(test, { name: 'mock', create: () => create({ tickMs: 20 }) });
runRoundTripLaw(test, { name: 'mock', create: () => create(), events: { limit: 5 }, sample: { events: 5, markets: 5 } });

describe('the simulated catalog', () => {
  let venue: MockAdapter;
  let all: Event[];
  beforeAll(async () => {
    venue = create();
    all = await venue.fetchEvents({ status: 'all', limit: 10_000 });
  });

  test('is a venue of 2,000 events of 1 to 12 markets, across categories', () => {
    expect(all).toHaveLength(2_000);
    const counts = all.map((event) => event.markets.length);
    expect(Math.min(...counts)).toBe(1);
    expect(Math.max(...counts)).toBe(12);
    expect(new Set(all.map((event) => event.category)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(all.flatMap((event) => event.tags ?? [])).size).toBeGreaterThan(20);
  });

  test('has binary and multi-outcome markets, and some closed events', () => {
    const markets = all.flatMap((event) => event.markets);
    expect(markets.some((market) => market.outcomes.length === 2)).toBe(true);
    expect(markets.some((market) => market.outcomes.length > 2)).toBe(true);
    expect(markets.some((market) => market.outcomes.length === 2 && market.yes?.label !== 'Yes')).toBe(true);
    const closed = all.filter((event) => event.markets.every((market) => market.status === 'resolved'));
    expect(closed.length).toBeGreaterThan(100);
    expect(closed.length).toBeLessThan(500);
  });

  test('spreads 24h volume over several orders of magnitude, in descending order', () => {
    const active = all.filter((event) => event.volume24h > 0).map((event) => event.volume24h);
    expect(Math.max(...active) / Math.min(...active)).toBeGreaterThan(1e5);
    const volumes = all.map((event) => event.volume24h);
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
  });

  test('passes the unified schema and invariants as a whole', () => {
    expect(checkResult('fetchEvents', all)).toEqual([]);
  });

  test('is the same for the same seed and day, and different for another seed', async () => {
    const again = await create().fetchEvents({ limit: 5 });
    expect(again).toEqual(all.filter((event) => event.markets.some((market) => market.status === 'active')).slice(0, 5));
    const other = await create({ seed: 'another', events: 50 }).fetchEvents({ limit: 5 });
    expect(other.map((event) => event.title)).not.toEqual(again.map((event) => event.title));
  });

  test("is shared within a day, and a later day's catalog replaces the earlier ones", async () => {
    const day = 86_400_000;
    const firstEvent = async (at: number) => (await plugin.create(context({ seed: 'days', events: 20 }, fixedClock(at))).fetchEvents({ limit: 1 }))[0];
    const today = await firstEvent(now);
    expect(await firstEvent(now + 1_000)).toBe(today);
    await firstEvent(now + day);
    const rebuilt = await firstEvent(now);
    expect(rebuilt).not.toBe(today);
    expect(rebuilt).toEqual(today);
  });
});

describe('edge cases (the edgeCases setting)', () => {
  const edgy = () => create({ events: 50, edgeCases: true });
  // The lists go through the kit's per-item check: the conformance suite holds with an item that breaks the model among them.
  runConformanceSuite(test, { name: 'mock with edge cases', create: () => create({ events: 50, edgeCases: true, tickMs: 20 }) });

  test('a list leaves the event priced in percent out as drift with its id and field, and serves the rest', async () => {
    const { value: events, reports } = await collectingDrift(async () => edgy().fetchEvents({ status: 'all', limit: 1_000 }));
    expect(events).toHaveLength(53);
    expect(events.some((event) => event.id === 'mock-edge-percent')).toBe(false);
    expect(reports.map((report) => report.detail)).toEqual([
      expect.objectContaining({ item: 'mock-edge-percent', field: expect.stringMatching(/^\d+\.markets\.0\.outcomes\.0\.price$/), drift: true }),
    ]);
    const byId = new Map(events.map((event) => [event.id, event]));
    const settled = byId.get('mock-edge-settled')!.markets[0]!;
    expect(settled.outcomes.map((outcome) => outcome.price)).toEqual([1, 0]);
    expect(settled.sourceMetadata).toEqual({ winningOutcomeId: settled.outcomes[0]!.outcomeId });
    expect(byId.get('mock-edge-voided')!.markets[0]).toMatchObject({ status: 'closed', sourceMetadata: { voided: true } });
    const huge = byId.get('90071992547409930')!;
    expect(huge.volume).toBe(2 ** 64);
    expect(huge.markets[0]!.outcomes.every((outcome) => outcome.price === undefined)).toBe(true);
    expect(checkResult('fetchEvents', events)).toEqual([]);
  });

  test('markets and paginated lists leave it out the same way', async () => {
    const { value: markets, reports } = await collectingDrift(async () => edgy().fetchMarkets({ status: 'all', limit: 1_000 }));
    expect(markets.some((market) => market.marketId === 'mock-edge-percent-m0')).toBe(false);
    expect(reports.map((report) => report.detail?.item)).toEqual(['mock-edge-percent-m0']);
    const { reports: paged } = await collectingDrift(async () => edgy().fetchEventsPaginated({ status: 'all', limit: 1_000 }));
    expect(paged.map((report) => report.detail?.item)).toEqual(['mock-edge-percent']);
  });

  test('a lookup of that event or market answers a clear error naming the field', async () => {
    const failure = (call: () => unknown) =>
      Promise.resolve()
        .then(call)
        .then(
          () => undefined,
          (error: unknown) => error,
        );
    for (const error of [
      await failure(() => edgy().fetchEvents({ eventId: 'mock-edge-percent' })),
      await failure(() => edgy().fetchMarkets({ marketId: 'mock-edge-percent-m0' })),
    ]) {
      expect(isPredgateError(error) && error.code).toBe('EXCHANGE_NOT_AVAILABLE');
      expect((error as { detail: { field: string } }).detail.field).toMatch(/^0\.(markets\.0\.)?outcomes\.0\.price$/);
    }
  });

  test('every settled market of the simulation names its winner, the outcome it paid 1 on', async () => {
    const markets = await create().fetchMarkets({ status: 'closed', limit: 1_000 });
    expect(markets.length).toBeGreaterThan(50);
    for (const market of markets) {
      const winner = market.outcomes.find((outcome) => outcome.price === 1);
      expect(market.sourceMetadata?.winningOutcomeId).toBe(winner?.outcomeId);
    }
  });
});

describe('catalog reads', () => {
  const venue = create();

  test('active events by default; closed and all on request', async () => {
    const active = await venue.fetchEvents({ limit: 10_000 });
    const closed = await venue.fetchEvents({ status: 'closed', limit: 10_000 });
    expect(active.length + closed.length).toBe(2_000);
    expect(closed.every((event) => event.markets.every((market) => market.status !== 'active'))).toBe(true);
    expect(await venue.fetchEvents({ status: 'inactive', limit: 10_000 })).toEqual(closed);
  });

  test('pages by limit and offset, or by an opaque cursor, without gaps or repeats', async () => {
    const whole = await venue.fetchEvents({ limit: 30 });
    const byOffset = [
      ...(await venue.fetchEvents({ limit: 10 })),
      ...(await venue.fetchEvents({ limit: 10, offset: 10 })),
      ...(await venue.fetchEvents({ limit: 10, offset: 20 })),
    ];
    expect(byOffset).toEqual(whole);
    const first = await venue.fetchEventsPaginated({ limit: 15 });
    const second = await venue.fetchEventsPaginated({ limit: 15, cursor: first.nextCursor });
    expect([...first.data, ...second.data]).toEqual(whole);
    expect(await venue.fetchEvents({ limit: 15, cursor: first.nextCursor })).toEqual(second.data);
    expect(first.total).toBeGreaterThan(1_500);
  });

  test('searches titles, or descriptions with searchIn', async () => {
    const hits = await venue.fetchEvents({ query: 'bitcoin', limit: 500 });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((event) => event.title.toLowerCase().includes('bitcoin'))).toBe(true);
    const inDescriptions = await venue.fetchEvents({ query: 'holds 12 markets', searchIn: 'description', limit: 500 });
    expect(inDescriptions.length).toBeGreaterThan(0);
    expect(inDescriptions.every((event) => event.markets.length === 12)).toBe(true);
  });

  test('filters by category, tags (any of), series and slug (the gateway answers sourceExchange)', async () => {
    const crypto = await venue.fetchEvents({ category: 'crypto', limit: 500 });
    expect(crypto.length).toBeGreaterThan(0);
    expect(crypto.every((event) => event.category === 'Crypto')).toBe(true);
    const tagged = await venue.fetchEvents({ tags: ['bitcoin', 'ethereum'], limit: 500 });
    expect(tagged.every((event) => event.tags?.some((tag) => tag === 'bitcoin' || tag === 'ethereum'))).toBe(true);
    const [series] = await venue.fetchSeries({ query: 'bitcoin daily price' });
    const inSeries = await venue.fetchEvents({ series: series!.id, status: 'all', limit: 500 });
    expect(inSeries.length).toBeGreaterThan(0);
    expect(inSeries.every((event) => event.sourceMetadata?.series === series!.id)).toBe(true);
    const [one] = crypto;
    expect(await venue.fetchEvents({ slug: one!.slug })).toEqual([one]);
  });

  test('paginated events and markets keep to the series asked for', async () => {
    const [series] = await venue.fetchSeries({ query: 'bitcoin daily price' });
    const inSeries = await venue.fetchEvents({ series: series!.id, status: 'all', limit: 500 });
    expect(await venue.fetchEventsPaginated({ series: series!.id, status: 'all', limit: 500 })).toEqual({ data: inSeries, total: inSeries.length });
    const markets = await venue.fetchMarketsPaginated({ series: series!.id, status: 'all', limit: 500 });
    const eventIds = new Set(inSeries.map((event) => event.id));
    expect(markets.data).toHaveLength(inSeries.reduce((sum, event) => sum + event.markets.length, 0));
    expect(markets.data.every((market) => eventIds.has(market.eventId!))).toBe(true);
  });

  test('sorts by liquidity and by newest on request', async () => {
    const byLiquidity = await venue.fetchEvents({ sort: 'liquidity', limit: 50 });
    const liquidity = byLiquidity.map((event) => event.markets.reduce((sum, market) => sum + market.liquidity, 0));
    expect(liquidity).toEqual([...liquidity].sort((a, b) => b - a));
    const newest = await venue.fetchEvents({ sort: 'newest', limit: 50 });
    const created = newest.map((event) => String(event.sourceMetadata?.createdAt));
    expect(created).toEqual([...created].sort().reverse());
  });

  test('finds one event or market through core, or says it is not there', async () => {
    // The mock lists events and markets; core builds fetchEvent and fetchMarket from those lists.
    const fetchEvent = adapterMethod(venue, 'fetchEvent')!;
    const fetchMarket = adapterMethod(venue, 'fetchMarket')!;
    const [event] = await venue.fetchEvents({ status: 'closed', limit: 1 });
    await expect(fetchEvent({ eventId: event!.id })).resolves.toEqual(event);
    const market = event!.markets[0]!;
    await expect(fetchMarket({ outcomeId: market.outcomes[1]!.outcomeId })).resolves.toEqual(market);
    await expect(fetchEvent({ slug: 'no-such-event' })).rejects.toMatchObject({ code: 'EVENT_NOT_FOUND', exchange: 'mock' });
    await expect(fetchMarket({ marketId: 'mock-e1-m99' })).rejects.toMatchObject({ code: 'MARKET_NOT_FOUND' });
  });

  test('has event metadata, and none for an unknown event', async () => {
    const [event] = await venue.fetchEvents({ limit: 1 });
    await expect(venue.fetchEventMetadata(event!.id)).resolves.toMatchObject({ eventId: event!.id, marketCount: event!.markets.length });
    await expect(venue.fetchEventMetadata('nope')).rejects.toMatchObject({ code: 'EVENT_NOT_FOUND' });
  });
});

describe('market data', () => {
  const venue = create();

  test('books have 5 to 50 levels a side around the outcome price, at the tick size', async () => {
    const markets = (await venue.fetchMarkets({ limit: 200 })).slice(0, 200);
    for (const market of markets) {
      for (const outcome of market.outcomes) {
        const book = await liveBook(venue, outcome.outcomeId);
        for (const side of [book.bids, book.asks]) {
          expect(side.length).toBeGreaterThanOrEqual(5);
          expect(side.length).toBeLessThanOrEqual(50);
        }
        expect(book.bids[0]!.price).toBeLessThan(priceOf(outcome) + 1e-9);
        expect(book.asks[0]!.price).toBeGreaterThan(priceOf(outcome) - 1e-9);
        const tick = market.tickSize!;
        for (const level of [...book.bids, ...book.asks]) expect(Math.abs(level.price / tick - Math.round(level.price / tick))).toBeLessThan(1e-6);
      }
    }
  });

  test('a book is chosen by market id and outcome (yes/no or an outcome id), or by side', async () => {
    const [binary] = await venue.fetchMarkets({ filter: { price: { outcome: 'yes', min: 0 } }, limit: 1 });
    const yesBook = await liveBook(venue, binary!.yes!.outcomeId);
    expect({ ...(await liveBook(venue, binary!.marketId, undefined, { outcome: 'yes' })), timestamp: 0 }).toEqual({ ...yesBook, timestamp: 0 });
    expect(await liveBook(venue, binary!.marketId, undefined, { side: 'no' })).toEqual(await liveBook(venue, binary!.no!.outcomeId));
    expect((await liveBook(venue, binary!.yes!.outcomeId, 3)).bids).toHaveLength(3);
    await expect(liveBook(venue, binary!.marketId)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  test('closed markets have no book, unknown outcomes are not found', async () => {
    const [closed] = await venue.fetchMarkets({ status: 'closed', limit: 1 });
    await expect(liveBook(venue, closed!.outcomes[0]!.outcomeId)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('No orderbook exists'),
    });
    await expect(liveBook(venue, 'mock-nothing')).rejects.toMatchObject({ code: 'OUTCOME_NOT_FOUND' });
  });

  test('trades are in the past, newest first, within start/end and limit', async () => {
    const [market] = await venue.fetchMarkets({ limit: 1 });
    const outcome = market!.outcomes[0]!;
    const trades = await venue.fetchTrades(outcome.outcomeId, { limit: 50 });
    expect(trades).toHaveLength(50);
    expect(trades[0]!.price).toBeCloseTo(priceOf(outcome), 2);
    expect(trades.every((trade, index) => trade.timestamp <= now && (index === 0 || trade.timestamp <= trades[index - 1]!.timestamp))).toBe(true);
    const windowed = await venue.fetchTrades(outcome.outcomeId, { start: new Date(now - 3_600_000), limit: 500 });
    expect(windowed.every((trade) => trade.timestamp >= now - 3_600_000)).toBe(true);
  });

  test('candles are aligned to the resolution and end at the current price', async () => {
    const [market] = await venue.fetchMarkets({ limit: 1 });
    const outcome = market!.outcomes[0]!;
    const candles = await venue.fetchOHLCV(outcome.outcomeId, { resolution: '1h', limit: 24 });
    expect(candles).toHaveLength(24);
    expect(candles.every((candle) => candle.timestamp % 3_600_000 === 0)).toBe(true);
    expect(candles.at(-1)!.close).toBe(outcome.price);
    expect(checkResult('fetchOHLCV', candles)).toEqual([]);
    // Candles that start at or after `start`: the one running at noon seven days ago started before it.
    const daily = await venue.fetchOHLCV(outcome.outcomeId, { resolution: '1d', start: new Date(now - 7 * 86_400_000) });
    expect(daily).toHaveLength(7);
  });
});

describe('the simulated account', () => {
  async function binaryMarket(venue: MockAdapter) {
    const [market] = await venue.fetchMarkets({ filter: { price: { outcome: 'yes', min: 0.3, max: 0.7 } }, limit: 1 });
    const book = await liveBook(venue, market!.yes!.outcomeId);
    return { market: market!, outcome: market!.yes!, book };
  }

  test('a crossing buy fills against the book and pays the taker fee', async () => {
    const venue = create();
    const { market, outcome, book } = await binaryMarket(venue);
    const size = Math.min(1, book.asks[0]!.size);
    const order = await venue.createOrder({ marketId: market.marketId, outcomeId: outcome.outcomeId, side: 'buy', type: 'market', amount: size });
    expect(order).toMatchObject({ status: 'filled', filled: size, remaining: 0, price: book.asks[0]!.price });
    expect(order.fee).toBeCloseTo(size * book.asks[0]!.price * 0.001, 9);
    const [balance] = await venue.fetchBalance();
    expect(balance!.total).toBeCloseTo(10_000 - size * book.asks[0]!.price - order.fee!, 6);
    const [position] = await venue.fetchPositions();
    expect(position).toMatchObject({ outcomeId: outcome.outcomeId, size, entryPrice: book.asks[0]!.price });
    expect((await venue.fetchMyTrades())[0]).toMatchObject({ orderId: order.id, amount: size });
  });

  test('a limit order below the ask rests, reserves cash, and can be cancelled once', async () => {
    const venue = create();
    const { market, outcome, book } = await binaryMarket(venue);
    const price = Number(book.bids.at(-1)!.price.toFixed(3));
    const order = await venue.createOrder({ marketId: market.marketId, outcomeId: outcome.outcomeId, side: 'buy', type: 'limit', price, amount: 100 });
    expect(order).toMatchObject({ status: 'open', filled: 0, remaining: 100 });
    expect((await venue.fetchBalance())[0]).toMatchObject({ total: 10_000, locked: price * 100 });
    expect(await venue.fetchOpenOrders(market.marketId)).toEqual([order]);
    await expect(venue.cancelOrder(order.id)).resolves.toMatchObject({ status: 'cancelled', remaining: 0 });
    await expect(venue.cancelOrder(order.id)).rejects.toMatchObject({ code: 'INVALID_ORDER' });
    expect((await venue.fetchBalance())[0]!.locked).toBe(0);
    expect(await venue.fetchClosedOrders()).toHaveLength(1);
  });

  test('orders the account cannot cover, too small, off-tick or on a closed market are refused', async () => {
    const venue = create({ startingCash: 5 });
    const { market, outcome } = await binaryMarket(venue);
    const base = { marketId: market.marketId, outcomeId: outcome.outcomeId, side: 'buy' as const, type: 'limit' as const, price: 0.3 };
    await expect(venue.createOrder({ ...base, amount: 1_000 })).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS', detail: { available: 5 } });
    await expect(venue.createOrder({ ...base, side: 'sell', amount: 5 })).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    await expect(venue.createOrder({ ...base, amount: 0.5 })).rejects.toMatchObject({ code: 'ORDER_SIZE_TOO_SMALL', detail: { min: 1 } });
    await expect(venue.createOrder({ ...base, price: 0.3333, amount: 1 })).rejects.toMatchObject({ code: 'INVALID_ORDER' });
    const [closed] = await venue.fetchMarkets({ status: 'closed', limit: 1 });
    await expect(venue.createOrder({ ...base, marketId: closed!.marketId, outcomeId: closed!.outcomes[0]!.outcomeId, amount: 1 })).rejects.toMatchObject({
      code: 'INVALID_ORDER',
    });
    await expect(venue.fetchOrder('mock-order-404')).rejects.toMatchObject({ code: 'ORDER_NOT_FOUND' });
  });

  test('buildOrder then submitOrder places the order; a stale build is refused', async () => {
    let clockNow = now;
    const venue = plugin.create(context({}, { now: () => clockNow }));
    const { market, outcome } = await binaryMarket(venue);
    const built = await venue.buildOrder({ marketId: market.marketId, outcomeId: outcome.outcomeId, side: 'buy', type: 'limit', price: 0.01, amount: 5 });
    await expect(venue.submitOrder(built)).resolves.toMatchObject({ status: 'open', amount: 5 });
    clockNow += 120_000;
    await expect(venue.submitOrder(built)).rejects.toMatchObject({ code: 'BUILT_ORDER_EXPIRED' });
  });

  test('each adapter instance has its own account', async () => {
    const alice = create();
    const bob = create();
    const { market, outcome } = await binaryMarket(alice);
    await alice.createOrder({ marketId: market.marketId, outcomeId: outcome.outcomeId, side: 'buy', type: 'limit', price: 0.01, amount: 1 });
    expect(await alice.fetchAllOrders()).toHaveLength(1);
    expect(await bob.fetchAllOrders()).toEqual([]);
  });
});

test('the plugin names its venue and checks its configuration', () => {
  expect(plugin).toMatchObject({ id: 'mock', coreRange: '^0.1.0' });
  expect(() => create({ events: 0 })).toThrow('mock: invalid adapter configuration: "events" must be greater than or equal to 1');
});
