import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Event } from '@predgate/core';
import { describe, expect, test, vi } from 'vitest';
import { catalogEntry } from '../src/document.js';
import { EmbeddedCatalogStore } from '../src/embedded/embedded-store.js';
import { FileRange } from '../src/embedded/file-bytes.js';
import { CatalogFiles } from '../src/embedded/persistence.js';
import { wrapJson } from '../src/json-out.js';
import { routerEventJson } from '../src/serialize.js';
import { catalogStoreContract } from './contract.js';
import { entries, fixtureEvent, sampleCatalog, sweepRecord } from './fixtures.js';

describe('EmbeddedCatalogStore', () => {
  catalogStoreContract(() => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    return {
      create: async () => new EmbeddedCatalogStore({ dir }),
      reopen: async () => new EmbeddedCatalogStore({ dir }),
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  });
});

describe('the embedded store on disk', () => {
  async function opened(dir: string, options: { snapshotAfterBytes?: number; snapshotAfterSweeps?: number } = {}) {
    const store = new EmbeddedCatalogStore({ dir, ...options });
    await store.open();
    return store;
  }

  async function commitSweep(store: EmbeddedCatalogStore, venue: string, sweepId: string, events: Event[]) {
    const writer = await store.beginSweep(venue, sweepId);
    await writer.add(entries(venue, events));
    await writer.commit(sweepRecord(venue, sweepId, events));
  }

  async function committed(dir: string, options: { snapshotAfterBytes?: number; snapshotAfterSweeps?: number } = {}) {
    const store = await opened(dir, options);
    for (const [venue, events] of Object.entries(sampleCatalog())) await commitSweep(store, venue, `${venue}-1`, events);
    return store;
  }

  const sweepIds = async (store: EmbeddedCatalogStore) => (await store.sweeps()).map((sweep) => sweep.sweepId).sort();
  const oneBeta = () => sampleCatalog().beta!.slice(0, 1);

  test('a sweep cut short by a crash (no commit line, a torn last line) is ignored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    await committed(dir);
    appendFileSync(
      join(dir, 'journal.ndjson'),
      '{"sequence":4,"begin":{"venue":"alpha","sweepId":"alpha-2"},"removals":["a1"]}\n{"sequence":4,"venueEventId":"a9","event":{"id"',
    );
    const reopened = new EmbeddedCatalogStore({ dir });
    await reopened.open();
    expect((await reopened.sweeps()).find((sweep) => sweep.venue === 'alpha')?.sweepId).toBe('alpha-1');
    expect((await reopened.events({ venue: 'alpha', status: 'all', order: 'venue', limit: 10, offset: 0 })).total).toBe(5);
  });

  test('a sweep committed after a crash-torn journal is kept too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    await committed(dir);
    appendFileSync(
      join(dir, 'journal.ndjson'),
      '{"sequence":4,"begin":{"venue":"alpha","sweepId":"alpha-2"},"removals":[]}\n{"sequence":4,"venueEventId":"a9","event":{"id"',
    );
    await commitSweep(await opened(dir), 'beta', 'beta-2', oneBeta());
    const reopened = await opened(dir);
    expect(await sweepIds(reopened)).toEqual(['alpha-1', 'beta-2', 'gamma-1']);
    expect((await reopened.events({ venue: 'beta', status: 'all', order: 'venue', limit: 10, offset: 0 })).total).toBe(1);
  });

  test('a commit line a crash left without its newline still counts, and the next sweep follows it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    await committed(dir);
    const journal = join(dir, 'journal.ndjson');
    writeFileSync(journal, readFileSync(journal, 'utf8').replace(/\n$/, ''));
    const restarted = await opened(dir);
    expect(await sweepIds(restarted)).toEqual(['alpha-1', 'beta-1', 'gamma-1']);
    await commitSweep(restarted, 'beta', 'beta-2', oneBeta());
    expect(await sweepIds(await opened(dir))).toEqual(['alpha-1', 'beta-2', 'gamma-1']);
  });

  test('sweeps of several venues committed at the same time all survive a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    const store = await opened(dir);
    const catalog = sampleCatalog();
    await Promise.all(Object.entries(catalog).map(([venue, events]) => commitSweep(store, venue, `${venue}-1`, events)));
    const reopened = await opened(dir);
    expect(await sweepIds(reopened)).toEqual(['alpha-1', 'beta-1', 'gamma-1']);
    for (const [venue, events] of Object.entries(catalog)) {
      expect((await reopened.events({ venue, status: 'all', order: 'venue', limit: 10, offset: 0 })).total).toBe(events.length);
    }
  });

  test('the journal records only what changed; a snapshot then empties it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    const store = await committed(dir);
    const alpha = sampleCatalog().alpha!;
    const changed = [{ ...alpha[0]!, title: 'Changed' }, ...alpha.slice(1, 4)];
    const writer = await store.beginSweep('alpha', 'alpha-2');
    await writer.add(entries('alpha', changed));
    await writer.commit(sweepRecord('alpha', 'alpha-2', changed));
    const records = readFileSync(join(dir, 'journal.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { sequence: number; begin?: unknown; removals?: string[]; venueEventId?: string; commit?: boolean });
    const last = records.filter((record) => record.sequence === records.at(-1)!.sequence);
    expect(last.at(-1)).toEqual({ sequence: 4, commit: true });
    expect(last[0]?.removals).toEqual(['a5']);
    expect(last.flatMap((record) => (record.venueEventId ? [record.venueEventId] : []))).toEqual(['a1']);
    await store.close();
    expect(readFileSync(join(dir, 'journal.ndjson'), 'utf8')).toBe('');
    const reopened = new EmbeddedCatalogStore({ dir });
    await reopened.open();
    expect((await reopened.events({ venue: 'alpha', status: 'all', order: 'venue', limit: 10, offset: 0 })).items.map((entry) => entry.source.title)).toEqual([
      'Changed',
      'Fed decision in December',
      'Harbor City election',
      'Old resolved bitcoin question',
    ]);
  });

  test('a sweep that repeats events keeps each one where it was stored, writing none of them again, and serves the same bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    const store = await committed(dir);
    const alpha = sampleCatalog().alpha!;
    const where = async () =>
      (await store.events({ venue: 'alpha', status: 'all', order: 'venue', limit: 10, offset: 0 })).items.map((entry) => {
        const bytes = entry.bytes as FileRange;
        return [entry.venueEventId, bytes.file.path, bytes.offset, entry.routerJson.toString('utf8')];
      });
    const before = await where();
    await commitSweep(store, 'alpha', 'alpha-2', alpha);
    expect(await where()).toEqual(before);
    const lines = readFileSync(join(dir, 'journal.ndjson'), 'utf8').trim().split('\n');
    expect(lines.slice(-2).map((line) => Object.keys(JSON.parse(line) as object))).toEqual([
      ['sequence', 'begin', 'removals'],
      ['sequence', 'commit'],
    ]);
    expect(Object.fromEntries(before.map(([id, , , view]) => [id, view]))).toEqual(
      Object.fromEntries(alpha.map((event) => [event.id, JSON.stringify(catalogEntry('alpha', event).router)])),
    );
  });

  test.each([
    ['its size limit', { snapshotAfterBytes: 1 }],
    ['its number of sweeps', { snapshotAfterSweeps: 3 }],
  ])('a journal past %s is folded into a snapshot at commit', async (_title, limits) => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    await committed(dir, limits);
    expect(readFileSync(join(dir, 'journal.ndjson'), 'utf8')).toBe('');
    expect(readFileSync(join(dir, 'snapshot.ndjson'), 'utf8').split('\n').filter(Boolean)).toHaveLength(11);
  });

  test('a sweep that makes a snapshot due goes straight into it, never appended to the journal and read back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    const append = vi.spyOn(CatalogFiles.prototype, 'append');
    try {
      const store = await committed(dir, { snapshotAfterBytes: 1 });
      expect(append).not.toHaveBeenCalled();
      expect(readFileSync(join(dir, 'journal.ndjson'), 'utf8')).toBe('');
      expect(await everything(await opened(dir))).toEqual(await everything(store));
    } finally {
      append.mockRestore();
    }
  });

  test.each([
    ['the journal', {}],
    ['a snapshot', { snapshotAfterBytes: 1 }],
    ['a snapshot of events already on disk', { snapshotAfterSweeps: 2 }],
  ])('events larger than a write chunk (1 MiB) and multi-byte text go through %s byte for byte', async (_title, limits) => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    const store = await opened(dir, limits);
    const large = { ...fixtureEvent('alpha', 'huge', { title: 'Zürich — 東京', volume24h: 5 }), description: 'é'.repeat(800_000) };
    const events = [fixtureEvent('alpha', 'small', { volume24h: 9 }), large, fixtureEvent('alpha', 'after', { volume24h: 1 })];
    await commitSweep(store, 'alpha', 'alpha-1', events);
    await commitSweep(store, 'beta', 'beta-1', oneBeta());
    const reopened = await opened(dir);
    expect(await everything(reopened)).toEqual(await everything(store));
    const [huge] = (await reopened.events({ venue: 'alpha', status: 'all', order: 'venue', limit: 10, offset: 0 })).items.filter(
      (entry) => entry.venueEventId === 'huge',
    );
    expect(JSON.parse(huge!.json.toString('utf8'))).toMatchObject({ title: 'Zürich — 東京', description: large.description });
  });

  test('a bad line followed by others is damage, not a crash, and is reported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    await committed(dir);
    appendFileSync(join(dir, 'journal.ndjson'), '{"sequence":4,"be\n{"sequence":4,"commit":true}\n');
    await expect(new EmbeddedCatalogStore({ dir }).open()).rejects.toThrow(/journal .* is corrupt at line \d+/);
  });

  test('a sweep begun but never committed does not count, even when a later sweep commits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    const store = await committed(dir);
    appendFileSync(join(dir, 'journal.ndjson'), '{"sequence":4,"begin":{"venue":"alpha","sweepId":"lost"},"removals":["a1","a2"]}\n');
    await commitSweep(store, 'beta', 'beta-2', oneBeta());
    const reopened = await opened(dir);
    expect(await sweepIds(reopened)).toEqual(['alpha-1', 'beta-2', 'gamma-1']);
    expect((await reopened.events({ venue: 'alpha', status: 'all', order: 'venue', limit: 10, offset: 0 })).total).toBe(5);
  });

  /** Everything a reader can see: every event's indexed fields and both views, and every market. */
  async function everything(store: EmbeddedCatalogStore) {
    const events = (await store.events({ status: 'all', order: 'router', limit: 1_000, offset: 0 })).items.map((entry) => ({
      ...Object.fromEntries(
        ['id', 'venue', 'venueEventId', 'slug', 'search', 'category', 'venueCategory', 'tags', 'closed', 'closesAt', 'volume24h'].map((key) => [
          key,
          entry[key as keyof typeof entry],
        ]),
      ),
      marketKeys: entry.marketKeys.map(({ marketId, slug, title, trading, category, normalizedCategory, tags, outcomeIds, volume24h }) => ({
        marketId,
        slug,
        title,
        trading,
        category,
        normalizedCategory,
        tags,
        outcomeIds,
        volume24h,
      })),
      marketIds: entry.marketIds,
      outcomeIds: entry.outcomeIds,
      source: entry.source,
      router: entry.router,
    }));
    const markets = (await store.markets({ status: 'all', limit: 1_000, offset: 0 })).items.map((hit) => ({ eventId: hit.eventId, market: hit.market }));
    return { events, markets };
  }

  test('a restart from the snapshot builds entries from the keys stored beside each event, equal to the ones it had', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    const store = await committed(dir);
    const before = await everything(store);
    await store.close();
    const snapshot = readFileSync(join(dir, 'snapshot.ndjson'), 'utf8').split('\n').filter(Boolean);
    expect(snapshot.slice(1).every((line) => 'keys' in (JSON.parse(line) as object))).toBe(true);
    expect(await everything(await opened(dir))).toEqual(before);
  });

  test('served bytes are the venue event and market exactly, fresh, replayed from the journal and loaded from the snapshot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    const originals = new Map(Object.values(sampleCatalog()).flatMap((events) => events.map((event) => [event.id, event] as const)));
    const expectExactBytes = async (store: EmbeddedCatalogStore) => {
      const { items } = await store.events({ status: 'all', order: 'venue', limit: 1_000, offset: 0 });
      expect(items).toHaveLength(originals.size);
      for (const entry of items) {
        const original = originals.get(entry.venueEventId)!;
        expect(entry.sourceJson.toString('utf8')).toBe(JSON.stringify(original));
        for (const market of original.markets) {
          const [hit] = (await store.markets({ venue: entry.venue, marketId: market.marketId, status: 'all', limit: 1, offset: 0 })).items;
          expect(hit?.json?.toString('utf8')).toBe(JSON.stringify(market));
        }
      }
    };
    const store = await committed(dir);
    await expectExactBytes(store);
    await expectExactBytes(await opened(dir));
    await store.close();
    await expectExactBytes(await opened(dir));
  });

  test('the Router view is made when swept and served as stored, fresh, from the journal and from the snapshot; files without views still serve it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    const views = new Map(
      Object.entries(sampleCatalog()).flatMap(([venue, events]) =>
        events.map((event) => [event.id, JSON.stringify(catalogEntry(venue, event).router)] as const),
      ),
    );
    const servedViews = async (store: EmbeddedCatalogStore, stored: boolean) => {
      const { items } = await store.events({ status: 'all', order: 'router', limit: 1_000, offset: 0 });
      expect(items).toHaveLength(views.size);
      for (const entry of items) {
        expect(entry.routerBytes instanceof FileRange).toBe(stored);
        expect(entry.routerJson.toString('utf8')).toBe(views.get(entry.venueEventId));
        // As a page writes it, straight into its answer.
        expect(wrapJson(routerEventJson(entry), '[', ']').toString('utf8')).toBe(`[${views.get(entry.venueEventId)}]`);
      }
    };
    const store = await committed(dir);
    await servedViews(store, true);
    await servedViews(await opened(dir), true);
    await store.close();
    await servedViews(await opened(dir), true);
    const path = join(dir, 'snapshot.ndjson');
    const [header, ...lines] = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    const withoutViews = lines.map((line) => {
      const { routerBytes: _length, routerPieces: _pieces, router: _view, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify(rest);
    });
    writeFileSync(path, `${[header, ...withoutViews].join('\n')}\n`);
    await servedViews(await opened(dir), false);
  });

  test('with a folder, events are read from the files the store wrote, not kept in memory, after a commit and after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    const onDisk = async (store: EmbeddedCatalogStore) =>
      (await store.events({ status: 'all', order: 'venue', limit: 1_000, offset: 0 })).items.map((entry) => entry.bytes instanceof FileRange);
    const everyEvent = Array(Object.values(sampleCatalog()).flat().length).fill(true);
    const store = await committed(dir);
    expect(await onDisk(store)).toEqual(everyEvent);
    expect(await onDisk(await opened(dir))).toEqual(everyEvent);
  });

  test('a snapshot taken while serving moves entries onto it; an entry of the sweep it replaced stays readable until its file is retired', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    const store = await committed(dir, { snapshotAfterSweeps: 4 });
    const alphaPage = () => store.events({ venue: 'alpha', status: 'all', order: 'venue', limit: 10, offset: 0 });
    const held = (await alphaPage()).items;
    const heldBytes = held.map((entry) => entry.json.toString('utf8'));
    const alpha = sampleCatalog().alpha!;
    const changed = [{ ...alpha[0]!, title: 'Changed' }, ...alpha.slice(1)];
    await commitSweep(store, 'alpha', 'alpha-2', changed);
    expect(readFileSync(join(dir, 'journal.ndjson'), 'utf8')).toBe('');
    expect(held.map((entry) => entry.json.toString('utf8'))).toEqual(heldBytes);
    const served = (await alphaPage()).items;
    expect(served.map((entry) => entry.bytes instanceof FileRange && entry.bytes.file.path)).toEqual(Array(5).fill(join(dir, 'snapshot.ndjson')));
    expect(served.map((entry) => entry.sourceJson.toString('utf8')).sort()).toEqual(changed.map((event) => JSON.stringify(event)).sort());
    await commitSweep(store, 'beta', 'beta-2', oneBeta());
    expect((await store.events({ venue: 'beta', status: 'all', order: 'venue', limit: 10, offset: 0 })).items.map((entry) => entry.source)).toEqual(oneBeta());
  });

  test('a snapshot written before keys were stored (events only) still loads the same catalog', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predgate-catalog-'));
    const store = await committed(dir);
    const before = await everything(store);
    await store.close();
    const path = join(dir, 'snapshot.ndjson');
    const [header, ...lines] = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    const withoutKeys = lines.map((line) => {
      const { keys: _keys, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify(rest);
    });
    writeFileSync(path, `${[header, ...withoutKeys].join('\n')}\n`);
    expect(await everything(await opened(dir))).toEqual(before);
  });

  test('lookups by market id, outcome id and slug, and a search, answer right after a commit, while the maps are still being built', async () => {
    const store = await committed(mkdtempSync(join(tmpdir(), 'predgate-catalog-')));
    const [event] = sampleCatalog().alpha!;
    const market = event!.markets[0]!;
    const lookups = async () => ({
      byOutcome: (await store.markets({ outcomeId: market.outcomes[1]!.outcomeId, status: 'all', limit: 1, offset: 0 })).items.map(
        (hit) => hit.market.marketId,
      ),
      bySlug: (await store.events({ slug: event!.slug, status: 'all', order: 'venue', limit: 1, offset: 0 })).items.map((entry) => entry.venueEventId),
      byMarket: (await store.events({ marketId: market.marketId, status: 'all', order: 'venue', limit: 1, offset: 0 })).items.map(
        (entry) => entry.venueEventId,
      ),
      bySearch: (await store.events({ search: event!.title.slice(2, 12).toLowerCase(), status: 'all', order: 'router', limit: 10, offset: 0 })).items.map(
        (entry) => entry.venueEventId,
      ),
    });
    const expected = { byOutcome: [market.marketId], bySlug: [event!.id], byMarket: [event!.id], bySearch: [event!.id] };
    expect(await lookups()).toEqual(expected);
    await store.indexed();
    expect(await lookups()).toEqual(expected);
  });

  test('in memory only, without a folder', async () => {
    const store = new EmbeddedCatalogStore();
    await store.open();
    const writer = await store.beginSweep('alpha', 'alpha-1');
    await writer.add(entries('alpha', [fixtureEvent('alpha', 'x')]));
    await writer.commit(sweepRecord('alpha', 'alpha-1', [fixtureEvent('alpha', 'x')]));
    expect((await store.sweeps()).map((sweep) => sweep.sweepId)).toEqual(['alpha-1']);
    await store.close();
  });
});
