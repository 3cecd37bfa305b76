import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { CatalogEntry } from '../src/document.js';
import { catalogEntry, catalogEventId } from '../src/document.js';
import { wrapJson } from '../src/json-out.js';
import { routerEventJson, routerEventsJson } from '../src/serialize.js';
import type { CatalogStore, EventQuery, MarketHit, MarketQuery, Page } from '../src/store.js';
import { entries, fixtureEvent, now, sampleCatalog, sweepRecord } from './fixtures.js';

/** Makes a store over a fresh location, and reopens one over the same location. */
export interface StoreTarget {
  create(): Promise<CatalogStore>;
  reopen(): Promise<CatalogStore>;
  cleanup(): Promise<void>;
}

const routerQuery = (overrides: Partial<EventQuery> = {}): EventQuery => ({
  status: 'active',
  order: 'router',
  limit: 50,
  offset: 0,
  expiredBy: now,
  withTotal: true,
  ...overrides,
});
const venueQuery = (venue: string, overrides: Partial<EventQuery> = {}): EventQuery => ({
  venue,
  status: 'all',
  order: 'venue',
  limit: 50,
  offset: 0,
  withTotal: true,
  ...overrides,
});
const marketQuery = (overrides: Partial<MarketQuery> = {}): MarketQuery => ({ status: 'all', limit: 50, offset: 0, withTotal: true, ...overrides });
const venueIds = (items: CatalogEntry[]) => items.map((entry) => entry.venueEventId);
const marketIds = (page: Page<MarketHit>) => page.items.map((hit) => hit.market.marketId);

async function sweep(store: CatalogStore, venue: string, sweepId: string, events = sampleCatalog()[venue]!): Promise<void> {
  const writer = await store.beginSweep(venue, sweepId);
  await writer.add(entries(venue, events.slice(0, 2)));
  await writer.add(entries(venue, events.slice(2)));
  await writer.commit(sweepRecord(venue, sweepId, events));
}

/**
 * The behaviour every CatalogStore must have. The embedded store, the MongoDB
 * store over the in-process wire double, and the MongoDB store on a real
 * server (when MONGODB_URI is set) all run exactly this.
 */
export function catalogStoreContract(target: () => StoreTarget): void {
  let location: StoreTarget;
  let store: CatalogStore;

  beforeEach(async () => {
    location = target();
    store = await location.create();
    await store.open();
  });
  afterEach(async () => {
    await store.close();
    await location.cleanup();
  });

  async function loadSample(): Promise<void> {
    for (const venue of ['alpha', 'beta', 'gamma']) await sweep(store, venue, `${venue}-1`);
  }

  describe('sweeps', () => {
    test('an empty catalog', async () => {
      expect(await store.sweeps()).toEqual([]);
      expect(await store.events(routerQuery())).toEqual({ items: [], total: 0 });
    });

    test('nothing of a sweep is visible before it commits; all of it is after', async () => {
      const events = sampleCatalog().alpha!;
      const writer = await store.beginSweep('alpha', 'alpha-1');
      await writer.add(entries('alpha', events));
      expect((await store.events(routerQuery({ status: 'all' }))).total).toBe(0);
      expect((await store.markets(marketQuery())).total).toBe(0);
      expect(await store.sweeps()).toEqual([]);
      await writer.commit(sweepRecord('alpha', 'alpha-1', events));
      expect((await store.events(routerQuery({ status: 'all' }))).total).toBe(5);
      expect((await store.markets(marketQuery())).total).toBe(10);
      expect(await store.sweeps()).toEqual([sweepRecord('alpha', 'alpha-1', events)]);
    });

    test('an aborted sweep leaves the previous one served intact', async () => {
      await loadSample();
      const writer = await store.beginSweep('alpha', 'alpha-2');
      await writer.add(entries('alpha', [fixtureEvent('alpha', 'a9', { volume24h: 10_000 })]));
      await writer.abort();
      const served = await store.events(venueQuery('alpha'));
      expect(venueIds(served.items).sort()).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
      expect((await store.sweeps()).find((record) => record.venue === 'alpha')?.sweepId).toBe('alpha-1');
    });

    test('an aborted sweep leaves none of its markets visible, and a venue aborted on its first sweep has none', async () => {
      await loadSample();
      const before = await store.markets(marketQuery({ venue: 'alpha' }));
      const writer = await store.beginSweep('alpha', 'alpha-2');
      await writer.add(entries('alpha', [fixtureEvent('alpha', 'a9', { volume24h: 10_000 }), fixtureEvent('alpha', 'a1', { volume24h: 1 })]));
      await writer.abort();
      expect(await store.markets(marketQuery({ venue: 'alpha' }))).toEqual(before);
      expect(await store.markets(marketQuery({ marketId: 'a9-m0' }))).toEqual({ items: [], total: 0 });
      const first = await store.beginSweep('delta', 'delta-1');
      await first.add(entries('delta', [fixtureEvent('delta', 'd1')]));
      await first.abort();
      expect(await store.markets(marketQuery({ venue: 'delta' }))).toEqual({ items: [], total: 0 });
      expect((await store.markets(marketQuery())).total).toBe(21);
    });

    test('a new sweep replaces the venue: changed events updated, vanished events gone, other venues untouched', async () => {
      await loadSample();
      const next = [
        fixtureEvent('alpha', 'a1', { title: 'Will Bitcoin close above 120k?', volume24h: 1_500, category: 'Crypto' }),
        fixtureEvent('alpha', 'a6', { volume24h: 5 }),
      ];
      await sweep(store, 'alpha', 'alpha-2', next);
      expect(venueIds((await store.events(venueQuery('alpha'))).items)).toEqual(['a1', 'a6']);
      expect((await store.eventById(catalogEventId('alpha', 'a1')))?.router.title).toBe('Will Bitcoin close above 120k?');
      expect(await store.eventById(catalogEventId('alpha', 'a2'))).toBeUndefined();
      expect((await store.events(venueQuery('beta'))).total).toBe(3);
      expect((await store.sweeps()).map((record) => record.sweepId).sort()).toEqual(['alpha-2', 'beta-1', 'gamma-1']);
    });

    test("a new sweep replaces the venue's markets: changed ones updated, vanished ones gone, other venues untouched", async () => {
      await loadSample();
      const next = [
        fixtureEvent('alpha', 'a1', { title: 'Will Bitcoin close above 120k?', volume24h: 1_500, category: 'Crypto', markets: 1 }),
        fixtureEvent('alpha', 'a6', { volume24h: 5 }),
      ];
      await sweep(store, 'alpha', 'alpha-2', next);
      const alpha = await store.markets(marketQuery({ venue: 'alpha' }));
      expect(marketIds(alpha)).toEqual(['a1-m0', 'a6-m0', 'a6-m1']);
      expect(alpha.items[0]?.market).toEqual(next[0]!.markets[0]);
      expect(await store.markets(marketQuery({ marketId: 'a1-m1' }))).toEqual({ items: [], total: 0 });
      expect(await store.markets(marketQuery({ eventUuid: catalogEventId('alpha', 'a2') }))).toEqual({ items: [], total: 0 });
      expect(marketIds(await store.markets(marketQuery({ title: '120k' })))).toEqual(['a1-m0']);
      expect((await store.markets(marketQuery({ venue: 'beta' }))).total).toBe(7);
      await sweep(store, 'alpha', 'alpha-3', next.slice(1));
      expect(marketIds(await store.markets(marketQuery({ venue: 'alpha' })))).toEqual(['a6-m0', 'a6-m1']);
      expect((await store.markets(marketQuery())).total).toBe(13);
    });

    test('a venue event seen twice in one sweep is stored once', async () => {
      const event = fixtureEvent('alpha', 'dup', { volume24h: 1 });
      const writer = await store.beginSweep('alpha', 'alpha-1');
      await writer.add(entries('alpha', [event]));
      await writer.add(entries('alpha', [{ ...event, title: 'Seen again' }]));
      await writer.commit(sweepRecord('alpha', 'alpha-1', [event]));
      const { items, total } = await store.events(venueQuery('alpha'));
      expect(total).toBe(1);
      expect(items[0]?.source.title).toBe('Seen again');
    });

    test('a venue event seen again in one sweep with fewer markets keeps only the markets it was last seen with', async () => {
      const writer = await store.beginSweep('alpha', 'alpha-1');
      await writer.add(entries('alpha', [fixtureEvent('alpha', 'dup', { markets: 3 }), fixtureEvent('alpha', 'other', { markets: 2 })]));
      const last = fixtureEvent('alpha', 'dup', { markets: 1, title: 'Seen again' });
      await writer.add(entries('alpha', [fixtureEvent('alpha', 'other', { markets: 3 }), fixtureEvent('alpha', 'other', { markets: 1 }), last]));
      await writer.commit(sweepRecord('alpha', 'alpha-1', [last]));
      const page = await store.markets(marketQuery({ venue: 'alpha' }));
      expect(marketIds(page).sort()).toEqual(['dup-m0', 'other-m0']);
      expect(page.items.find((hit) => hit.market.marketId === 'dup-m0')?.market.title).toBe('Seen again — market 0');
    });

    test('a reopened store serves the last committed sweeps, without the uncommitted one', async () => {
      await loadSample();
      const writer = await store.beginSweep('beta', 'beta-2');
      await writer.add(entries('beta', [fixtureEvent('beta', 'b9')]));
      // No commit: as if the process died here.
      const reopened = await location.reopen();
      await reopened.open();
      try {
        expect((await reopened.sweeps()).map((record) => record.sweepId).sort()).toEqual(['alpha-1', 'beta-1', 'gamma-1']);
        expect(venueIds((await reopened.events(venueQuery('beta'))).items)).toEqual(['b1', 'b2', 'b3']);
        expect((await reopened.markets(marketQuery({ venue: 'beta' }))).total).toBe(7);
        expect((await reopened.markets(marketQuery({ venueEventId: 'b9', venue: 'beta' }))).total).toBe(0);
        const entry = await reopened.eventById(catalogEventId('alpha', 'a1'));
        expect(entry?.source).toEqual(sampleCatalog().alpha![0]);
      } finally {
        await reopened.close();
      }
    });
  });

  describe('Router queries', () => {
    beforeEach(loadSample);

    test('open events across venues by 24h volume, the UUID breaking ties, with the total', async () => {
      const { items, total } = await store.events(routerQuery());
      expect(total).toBe(8);
      expect(items.map((entry) => entry.volume24h)).toEqual([900, 700, 500, 500, 500, 20, 0, 0]);
      for (let index = 1; index < items.length; index += 1) {
        const [before, after] = [items[index - 1]!, items[index]!];
        expect(before.volume24h > after.volume24h || (before.volume24h === after.volume24h && before.id < after.id)).toBe(true);
      }
      expect(venueIds(items)).not.toContain('a4');
      expect(venueIds(items)).not.toContain('a5');
    });

    test('pages are stable slices of one order, without gaps or repeats', async () => {
      const whole = (await store.events(routerQuery({ status: 'all' }))).items.map((entry) => entry.id);
      const pages = [];
      for (let offset = 0; offset < 12; offset += 3)
        pages.push(...(await store.events(routerQuery({ status: 'all', limit: 3, offset }))).items.map((entry) => entry.id));
      expect(pages).toEqual(whole);
      expect(whole).toHaveLength(10);
      expect(await store.events(routerQuery({ status: 'all', offset: 50 }))).toEqual({ items: [], total: 10 });
    });

    test("a venue's open pages skip its expired events", async () => {
      const whole = await store.events(routerQuery({ venue: 'alpha' }));
      expect(venueIds(whole.items).sort()).toEqual(['a1', 'a2', 'a3']);
      const second = await store.events(routerQuery({ venue: 'alpha', offset: 1, limit: 1 }));
      expect(second).toEqual({ items: whole.items.slice(1, 2), total: 3 });
      expect((await store.events(routerQuery({ venue: 'alpha', offset: 2, limit: 5 }))).items.map((entry) => entry.id)).toEqual(
        whole.items.slice(2).map((entry) => entry.id),
      );
    });

    test('closed events are those the venue closed or whose close time has passed', async () => {
      const closed = await store.events(routerQuery({ status: 'closed' }));
      expect(venueIds(closed.items).sort()).toEqual(['a4', 'a5']);
      const withoutClock = await store.events(routerQuery({ status: 'closed', expiredBy: undefined }));
      expect(venueIds(withoutClock.items)).toEqual(['a4']);
    });

    test('search is a case-insensitive substring of the title or the slug', async () => {
      const bitcoin = await store.events(routerQuery({ search: 'bitcoin' }));
      expect(venueIds(bitcoin.items)).toEqual(['a1', 'b2']);
      expect(bitcoin.total).toBe(2);
      expect(venueIds((await store.events(routerQuery({ search: 'event-b3' }))).items)).toEqual(['b3']);
      // Two letters are too short for the index: a scan finds them all the same.
      expect(venueIds((await store.events(routerQuery({ search: 'ci' }))).items).sort()).toEqual(['a2', 'a3']);
      expect((await store.events(routerQuery({ search: 'no such words' }))).total).toBe(0);
    });

    test('filters by venue and by normalised category, together too', async () => {
      expect(venueIds((await store.events(routerQuery({ venue: 'beta' }))).items)).toEqual(['b1', 'b2', 'b3']);
      const crypto = await store.events(routerQuery({ category: 'Crypto', status: 'all' }));
      expect(venueIds(crypto.items).sort()).toEqual(['a1', 'a4', 'a5', 'b2']);
      expect(venueIds((await store.events(routerQuery({ category: 'Crypto', venue: 'beta' }))).items)).toEqual(['b2']);
      expect(venueIds((await store.events(routerQuery({ category: 'Science' }))).items)).toEqual(['g1']);
      expect((await store.events(routerQuery({ venue: 'nowhere' }))).total).toBe(0);
    });

    test('a Router page is the views made when swept, byte for byte the same on every store', async () => {
      const expected = Object.entries(sampleCatalog()).flatMap(([venue, events]) => events.map((event) => catalogEntry(venue, event)));
      const { items } = await store.events(routerQuery({ status: 'all' }));
      const views = items.map((item) => JSON.stringify(expected.find((entry) => entry.id === item.id)!.router));
      expect(wrapJson(routerEventsJson(items), '{"data":', '}').toString('utf8')).toBe(`{"data":[${views.join(',')}]}`);
      const one = await store.eventById(catalogEventId('beta', 'b1'));
      expect(wrapJson(routerEventJson(one!), '', '').toString('utf8')).toBe(views[items.findIndex((item) => item.id === one!.id)]);
    });

    test('an event by its UUID, with both views', async () => {
      const entry = await store.eventById(catalogEventId('beta', 'b1'));
      expect(entry?.router).toMatchObject({ id: catalogEventId('beta', 'b1'), sourceExchange: 'beta', category: 'Sports' });
      expect(entry?.router.markets.every((market) => market.eventId === entry.id && market.sourceExchange === 'beta' && market.yes === undefined)).toBe(true);
      expect(entry?.source).toEqual(sampleCatalog().beta![0]);
      expect(await store.eventById('00000000-0000-5000-8000-000000000000')).toBeUndefined();
    });
  });

  describe('pass-through queries', () => {
    beforeEach(loadSample);

    test("a venue's events in its own order: 24h volume, then the venue's id", async () => {
      expect(venueIds((await store.events(venueQuery('alpha'))).items)).toEqual(['a1', 'a2', 'a3', 'a5', 'a4']);
      expect(venueIds((await store.events(venueQuery('alpha', { status: 'active' }))).items)).toEqual(['a1', 'a2', 'a3', 'a5']);
    });

    test.each([
      ['title', { title: 'bitcoin' }, ['a1', 'a4']],
      ['venue category, without regard to case', { venueCategory: 'crypto' }, ['a1', 'a5', 'a4']],
      ['any of the tags', { tags: ['rates', 'nothing'] }, ['a2']],
      ['venue event id', { venueEventId: 'a3' }, ['a3']],
      ['slug', { slug: 'event-a2' }, ['a2']],
      ['market id', { marketId: 'a2-m1' }, ['a2']],
      ['outcome id', { outcomeId: 'a3-m0-no' }, ['a3']],
    ])('by %s', async (_title, filter, expected) => {
      expect(venueIds((await store.events(venueQuery('alpha', filter as Partial<EventQuery>))).items)).toEqual(expected);
    });

    test('markets by 24h volume with their events, filtered and paged', async () => {
      const all = await store.markets(marketQuery({ venue: 'beta' }));
      expect(all.total).toBe(7);
      expect(all.items.map((hit) => hit.market.marketId)).toEqual(['b2-m0', 'b2-m1', 'b1-m0', 'b1-m1', 'b1-m2', 'b3-m0', 'b3-m1']);
      expect(all.items[0]?.venueEventId).toBe('b2');
      expect(all.items[0]?.eventId).toBe(catalogEventId('beta', 'b2'));
      expect(all.items[0]?.venue).toBe('beta');
      expect(all.items[0]?.market).toEqual(sampleCatalog().beta![1]!.markets[0]);
      const page = await store.markets(marketQuery({ venue: 'beta', offset: 2, limit: 2 }));
      expect(page.items.map((hit) => hit.market.marketId)).toEqual(['b1-m0', 'b1-m1']);
      expect(page.total).toBe(7);
    });

    test.each([
      ['market id', { marketId: 'a2-m1' }, ['a2-m1']],
      ['outcome id', { outcomeId: 'b2-m1-yes' }, ['b2-m1']],
      ['market slug', { slug: 'a1-market-0' }, ['a1-m0']],
      ['event UUID', { eventUuid: catalogEventId('gamma', 'g2') }, ['g2-m0', 'g2-m1']],
      ['venue event id', { venue: 'alpha', venueEventId: 'a3' }, ['a3-m0', 'a3-m1']],
      ['closed markets', { status: 'closed' }, ['a4-m0', 'a4-m1']],
      ['title', { title: 'nba finals winner — market 2' }, ['b1-m2']],
      ['normalised category', { category: 'Science' }, ['g1-m0', 'g1-m1']],
      ['normalised category and status', { category: 'Crypto', status: 'active' }, ['a1-m0', 'a1-m1', 'b2-m0', 'b2-m1', 'a5-m0', 'a5-m1']],
      ['venue and normalised category', { venue: 'beta', category: 'Crypto' }, ['b2-m0', 'b2-m1']],
      ["the venue's category", { venue: 'beta', venueCategory: 'pop culture' }, ['b3-m0', 'b3-m1']],
      ['venue and outcome id', { venue: 'alpha', outcomeId: 'a3-m1-no' }, ['a3-m1']],
      ['event UUID and status', { eventUuid: catalogEventId('alpha', 'a4'), status: 'active' }, []],
      ['tags', { tags: ['daily'] }, ['b2-m0', 'b2-m1']],
    ])('markets by %s', async (_title, filter, expected) => {
      expect((await store.markets(marketQuery(filter as Partial<MarketQuery>))).items.map((hit) => hit.market.marketId)).toEqual(expected);
    });

    test('market pages are stable slices of one order, without gaps or repeats, past the first page too', async () => {
      const whole = marketIds(await store.markets(marketQuery()));
      expect(whole).toHaveLength(21);
      const pages = [];
      for (let offset = 0; offset < 24; offset += 4) pages.push(...marketIds(await store.markets(marketQuery({ limit: 4, offset }))));
      expect(pages).toEqual(whole);
      expect(await store.markets(marketQuery({ offset: 50 }))).toEqual({ items: [], total: 21 });
      const third = await store.markets(marketQuery({ venue: 'alpha', status: 'active', limit: 3, offset: 6 }));
      expect(marketIds(third)).toEqual(['a5-m0', 'a5-m1']);
      expect(third.total).toBe(8);
    });

    test('the status of a market is its own: open and closed split every market between them', async () => {
      const active = await store.markets(marketQuery({ status: 'active' }));
      const closed = await store.markets(marketQuery({ status: 'closed' }));
      expect([active.total, closed.total]).toEqual([19, 2]);
      expect(marketIds(active)).not.toContain('a4-m0');
      expect([...marketIds(active), ...marketIds(closed)].sort()).toEqual(marketIds(await store.markets(marketQuery())).sort());
    });

    test('markets across venues by 24h volume, then venue and market id', async () => {
      const { items } = await store.markets(marketQuery({ limit: 4 }));
      expect(items.map((hit) => hit.market.marketId)).toEqual(['a1-m0', 'a1-m1', 'a2-m0', 'a2-m1']);
    });
  });
}
