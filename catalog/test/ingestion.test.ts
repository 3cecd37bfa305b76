import { PredgateError, fixedClock } from '@predgate/core';
import type { Event, Logger, PageParams, EventFilterCriteria, VenueAdapter } from '@predgate/core';
import { describe, expect, test, vi } from 'vitest';
import { catalogEventId } from '../src/document.js';
import { EmbeddedCatalogStore } from '../src/embedded/embedded-store.js';
import { CatalogService } from '../src/ingestion/catalog-service.js';
import { fixtureEvent, now } from './fixtures.js';

const profile = { displayName: 'Fake', hosts: {}, rateLimit: null, credentials: { required: [], optional: [] } };

/** A venue of `count` events served by offset pages; `failOnce(page)` makes that page fail the next time. */
function offsetVenue(venue: string, count: number, options: { onCall?: (params: unknown) => Promise<void> } = {}) {
  const events = Array.from({ length: count }, (_, index) => fixtureEvent(venue, `${venue}${index}`, { volume24h: index }));
  let fail: number | undefined;
  const calls: Array<Record<string, unknown>> = [];
  const adapter: VenueAdapter = {
    id: venue,
    profile,
    fetchEvents: async (params = {}) => {
      calls.push({ ...params });
      await options.onCall?.(params);
      const offset = params.offset ?? 0;
      if (fail !== undefined && offset / params.limit! === fail) {
        fail = undefined;
        throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue} is down`, { exchange: venue });
      }
      return events.slice(offset, offset + params.limit!);
    },
  };
  return { adapter, events, calls, failOnce: (page: number) => void (fail = page) };
}

function spyLogger(): Logger & { warn: ReturnType<typeof vi.fn>; debug: ReturnType<typeof vi.fn>; info: ReturnType<typeof vi.fn> } {
  const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn(), child: () => logger };
  return logger;
}

async function openStore(): Promise<EmbeddedCatalogStore> {
  const store = new EmbeddedCatalogStore();
  await store.open();
  return store;
}

describe('sweeps', () => {
  test('page through every event by offset with status all, and commit the counts', async () => {
    const store = await openStore();
    const venue = offsetVenue('fake', 450);
    const catalog = new CatalogService({ store, venues: [{ id: 'fake', adapter: venue.adapter }], clock: fixedClock(now), pageSize: 200 });
    const record = await catalog.sweep('fake');
    expect(record).toMatchObject({ venue: 'fake', events: 450, markets: 900, outcomes: 1800, startedAt: now, finishedAt: now });
    expect(venue.calls).toEqual([
      { status: 'all', limit: 200, offset: 0 },
      { status: 'all', limit: 200, offset: 200 },
      { status: 'all', limit: 200, offset: 400 },
    ]);
    expect((await store.events({ venue: 'fake', status: 'all', order: 'venue', limit: 1, offset: 0 })).total).toBe(450);
    expect(catalog.status()[0]).toMatchObject({ lastSweep: record, lastError: null, consecutiveFailures: 0, running: false });
  });

  test('prefer the cursor of fetchEventsPaginated when the adapter has it', async () => {
    const store = await openStore();
    const events = Array.from({ length: 5 }, (_, index) => fixtureEvent('cursor', `c${index}`));
    const seen: Array<PageParams<EventFilterCriteria>> = [];
    const adapter: VenueAdapter = {
      id: 'cursor',
      profile,
      fetchEventsPaginated: async (params = {}) => {
        seen.push(params);
        const start = params.cursor ? Number(params.cursor) : 0;
        const end = start + params.limit!;
        return { data: events.slice(start, end), ...(end < events.length ? { nextCursor: String(end) } : {}) };
      },
      fetchEvents: async () => {
        throw new Error('offset paging should not be used');
      },
    };
    const catalog = new CatalogService({ store, venues: [{ id: 'cursor', adapter }], clock: fixedClock(now), pageSize: 2 });
    expect((await catalog.sweep('cursor')).events).toBe(5);
    expect(seen).toEqual([
      { status: 'all', limit: 2 },
      { status: 'all', limit: 2, cursor: '2' },
      { status: 'all', limit: 2, cursor: '4' },
    ]);
  });

  test('a sweep that fails half-way leaves the previous sweep served, and records the error', async () => {
    const store = await openStore();
    const first = offsetVenue('fake', 300);
    const catalog = new CatalogService({ store, venues: [{ id: 'fake', adapter: first.adapter }], clock: fixedClock(now), pageSize: 100 });
    await catalog.sweep('fake');
    first.failOnce(2);
    await expect(catalog.sweep('fake')).rejects.toThrow('fake is down');
    expect((await store.events({ venue: 'fake', status: 'all', order: 'venue', limit: 1, offset: 0 })).total).toBe(300);
    expect(catalog.status()[0]).toMatchObject({ lastError: { message: 'fake is down', code: 'EXCHANGE_NOT_AVAILABLE', at: now }, consecutiveFailures: 1 });
    expect(catalog.status()[0]!.lastSweep?.events).toBe(300);
  });

  test('an event listed twice in a sweep is counted once', async () => {
    const store = await openStore();
    const twice = fixtureEvent('twice', 't1');
    const adapter: VenueAdapter = {
      id: 'twice',
      profile,
      fetchEvents: async (params = {}) => (params.offset === 0 ? [twice, fixtureEvent('twice', 't2')] : [twice]),
    };
    const catalog = new CatalogService({ store, venues: [{ id: 'twice', adapter }], clock: fixedClock(now), pageSize: 2 });
    expect(await catalog.sweep('twice')).toMatchObject({ events: 2, markets: 4, outcomes: 8 });
  });

  test('a venue swept with status active is asked for open events only', async () => {
    const store = await openStore();
    const venue = offsetVenue('fake', 3);
    const catalog = new CatalogService({ store, venues: [{ id: 'fake', adapter: venue.adapter, status: 'active', pageSize: 10 }], clock: fixedClock(now) });
    await catalog.sweep('fake');
    expect(venue.calls).toEqual([{ status: 'active', limit: 10, offset: 0 }]);
  });

  test('events gone from the venue are gone after the next complete sweep', async () => {
    const store = await openStore();
    const venue = offsetVenue('fake', 3);
    const catalog = new CatalogService({ store, venues: [{ id: 'fake', adapter: venue.adapter }], clock: fixedClock(now) });
    await catalog.sweep('fake');
    venue.events.splice(1, 1);
    await catalog.sweep('fake');
    expect(await store.eventById(catalogEventId('fake', 'fake1'))).toBeUndefined();
    expect(await store.eventById(catalogEventId('fake', 'fake2'))).toBeDefined();
  });

  test('a venue that never stops paging is abandoned, not swept forever', async () => {
    const store = await openStore();
    const endless: VenueAdapter = {
      id: 'endless',
      profile,
      fetchEvents: async (params = {}) => Array.from({ length: params.limit! }, (_, index) => fixtureEvent('endless', `e${(params.offset ?? 0) + index}`)),
    };
    const catalog = new CatalogService({ store, venues: [{ id: 'endless', adapter: endless }], clock: fixedClock(now), pageSize: 10, maxPages: 5 });
    await expect(catalog.sweep('endless')).rejects.toThrow('still handing out pages after 5');
    expect(await store.sweeps()).toEqual([]);
  });
});

describe('scheduling', () => {
  test('failures back off exponentially, bounded, and are logged when they start or change, not every time', async () => {
    const store = await openStore();
    const logger = spyLogger();
    let clock = now;
    let message = 'down';
    const broken: VenueAdapter = {
      id: 'broken',
      profile,
      fetchEvents: async () => {
        throw new Error(message);
      },
    };
    const catalog = new CatalogService({
      store,
      venues: [{ id: 'broken', adapter: broken }],
      clock: { now: () => clock },
      logger,
      backoffMs: 1_000,
      maxBackoffMs: 5_000,
    });
    catalog.start();
    const delays = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      if (attempt === 3) message = 'different';
      await catalog.sweep('broken').catch(() => {});
      delays.push(catalog.status()[0]!.nextAttemptAt! - clock);
      clock += 1;
    }
    await catalog.stop();
    expect(delays).toEqual([1_000, 2_000, 4_000, 5_000, 5_000]);
    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(logger.debug).toHaveBeenCalledTimes(3);
  });

  test('firstRound resolves once every venue has swept or failed once; with quietFirstRound a first failure is not a warning', async () => {
    const store = await openStore();
    const logger = spyLogger();
    const good = offsetVenue('good', 3);
    const broken: VenueAdapter = {
      id: 'broken',
      profile,
      fetchEvents: async () => {
        throw new PredgateError('NETWORK_ERROR', 'broken is unreachable', { exchange: 'broken' });
      },
    };
    const catalog = new CatalogService({
      store,
      venues: [
        { id: 'good', adapter: good.adapter },
        { id: 'broken', adapter: broken },
      ],
      clock: fixedClock(now),
      logger,
      quietFirstRound: true,
    });
    const round = catalog.firstRound();
    catalog.start();
    const statuses = await round;
    await catalog.stop();
    expect(statuses.map(({ venue, lastSweep, lastError }) => ({ venue, swept: lastSweep !== null, code: lastError?.code }))).toEqual([
      { venue: 'good', swept: true, code: undefined },
      { venue: 'broken', swept: false, code: 'NETWORK_ERROR' },
    ]);
    expect(logger.warn).not.toHaveBeenCalled();
    expect(logger.debug).toHaveBeenCalledWith(expect.objectContaining({ venue: 'broken', code: 'NETWORK_ERROR' }), expect.stringContaining('unreachable'));
    // Asked again after the round, it answers at once.
    await expect(catalog.firstRound()).resolves.toHaveLength(2);
  });

  test('a restart with a recent sweep waits an interval instead of sweeping again', async () => {
    const store = await openStore();
    const venue = offsetVenue('fake', 3);
    const first = new CatalogService({ store, venues: [{ id: 'fake', adapter: venue.adapter }], clock: fixedClock(now) });
    await first.sweep('fake');
    const restarted = new CatalogService({ store, venues: [{ id: 'fake', adapter: venue.adapter }], clock: fixedClock(now + 1_000), intervalMs: 60_000 });
    await restarted.load();
    restarted.start();
    const { nextAttemptAt, lastSweep } = restarted.status()[0]!;
    await restarted.stop();
    expect(lastSweep?.finishedAt).toBe(now);
    expect(nextAttemptAt! - now).toBeGreaterThanOrEqual(54_000);
    expect(nextAttemptAt! - now).toBeLessThanOrEqual(66_000);
    expect(venue.calls).toHaveLength(1);
  });

  test('sweeps run no more than `concurrency` at once across venues', async () => {
    const store = await openStore();
    let running = 0;
    let peak = 0;
    const onCall = async () => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
    };
    const venues = ['v1', 'v2', 'v3', 'v4'].map((id) => ({ id, adapter: offsetVenue(id, 30, { onCall }).adapter }));
    const catalog = new CatalogService({ store, venues, clock: fixedClock(now), concurrency: 2, pageSize: 10 });
    await Promise.all(venues.map((venue) => catalog.sweep(venue.id)));
    expect(peak).toBe(2);
    expect((await store.sweeps()).length).toBe(4);
  });

  test('a venue is fresh while its last sweep is younger than the limit', async () => {
    const store = await openStore();
    let clock = now;
    const venue = offsetVenue('fake', 1);
    const catalog = new CatalogService({ store, venues: [{ id: 'fake', adapter: venue.adapter }], clock: { now: () => clock }, freshForMs: 120_000 });
    expect(catalog.isFresh('fake')).toBe(false);
    await catalog.sweep('fake');
    clock += 120_000;
    expect(catalog.isFresh('fake')).toBe(true);
    clock += 1;
    expect(catalog.isFresh('fake')).toBe(false);
    expect(catalog.isFresh('unknown')).toBe(false);
  });
});

test('events of the same venue id keep the same UUID across sweeps and stores', () => {
  const event: Event = fixtureEvent('fake', 'stable');
  expect(catalogEventId('fake', event.id)).toBe(catalogEventId('fake', 'stable'));
  expect(catalogEventId('fake', 'stable')).not.toBe(catalogEventId('other', 'stable'));
});

describe('the shrinking-sweep guard', () => {
  /** A venue whose listing has `sizes[n]` events on its n-th sweep (the last size repeats). */
  function shrinkingVenue(venue: string, sizes: number[], closeAll = false) {
    let sweepIndex = -1;
    const adapter: VenueAdapter = {
      id: venue,
      profile,
      fetchEvents: async (params = {}) => {
        const offset = params.offset ?? 0;
        if (offset === 0) sweepIndex += 1;
        const count = sizes[Math.min(sweepIndex, sizes.length - 1)]!;
        const events = Array.from({ length: count }, (_, index) =>
          fixtureEvent(venue, `${venue}${index}`, { volume24h: index, ...(closeAll && sweepIndex > 0 ? { closed: true } : {}) }),
        );
        return events.slice(offset, offset + params.limit!);
      },
    };
    return adapter;
  }
  const eventsOf = async (store: EmbeddedCatalogStore, venue: string) =>
    (await store.events({ venue, status: 'all', order: 'venue', limit: 1, offset: 0, withTotal: true })).total;

  test('holds a sweep that drops 60% of the events, keeps serving the last one, and commits it once the next sweep confirms it', async () => {
    const store = await openStore();
    const logger = spyLogger();
    const catalog = new CatalogService({ store, venues: [{ id: 'shrink', adapter: shrinkingVenue('shrink', [100, 40, 40]) }], clock: fixedClock(now), logger });
    expect(await catalog.sweep('shrink')).toMatchObject({ events: 100, openMarkets: 200 });

    const held = await catalog.sweep('shrink');
    expect(held).toMatchObject({ events: 40, held: expect.stringContaining('drop 60% of the venue') });
    expect(await eventsOf(store, 'shrink')).toBe(100);
    const [status] = catalog.status();
    expect(status).toMatchObject({ lastSweep: { events: 100 }, heldSweep: { sweep: { events: 40 }, reason: held.held } });
    expect(logger.warn).toHaveBeenCalledWith(expect.objectContaining({ venue: 'shrink', events: 40 }), expect.stringContaining('held back'));

    const confirmed = await catalog.sweep('shrink');
    expect(confirmed.held).toBeUndefined();
    expect(await eventsOf(store, 'shrink')).toBe(40);
    expect(catalog.status()[0]).toMatchObject({ lastSweep: { events: 40 }, heldSweep: null });
  });

  test('a sweep that closes most open markets at once is held too', async () => {
    const store = await openStore();
    const catalog = new CatalogService({ store, venues: [{ id: 'closing', adapter: shrinkingVenue('closing', [50], true) }], clock: fixedClock(now) });
    await catalog.sweep('closing');
    expect((await catalog.sweep('closing')).held).toContain('open markets (100 to 0)');
  });

  test('a small shrink commits at once, and the guard can be set per venue or turned off', async () => {
    const store = await openStore();
    const catalog = new CatalogService({
      store,
      venues: [
        { id: 'small', adapter: shrinkingVenue('small', [100, 60]) },
        { id: 'strict', adapter: shrinkingVenue('strict', [100, 85]), shrinkGuard: { events: 0.1, openMarkets: 0.1 } },
        { id: 'off', adapter: shrinkingVenue('off', [100, 1]), shrinkGuard: false },
      ],
      clock: fixedClock(now),
    });
    for (const venue of ['small', 'strict', 'off']) await catalog.sweep(venue);
    expect((await catalog.sweep('small')).held).toBeUndefined();
    expect((await catalog.sweep('strict')).held).toContain('drop 15%');
    expect((await catalog.sweep('off')).held).toBeUndefined();
    expect(await eventsOf(store, 'off')).toBe(1);
  });
});
