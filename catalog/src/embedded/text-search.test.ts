import fc from 'fast-check';
import { expect, test } from 'vitest';
import { fixtureEvent, now, sweepRecord } from '../../test/fixtures.js';
import { catalogEntry } from '../document.js';
import type { CatalogStatus } from '../store.js';
import { Interner } from './interner.js';
import { VenuePartition, routerOrder } from './partition.js';
import { EntryViews, StoredEntry } from './stored-entry.js';
import { TextSearch } from './text-search.js';

const day = 24 * 3600 * 1000;
const words = ['bitcoin', 'election', 'harbor', 'rain', 'bit', 'fed', 'city'];

test('a search page through the index is the page a plain filter of every event gives: any text, status, expiry, offset and limit', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.record({
          title: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }),
          volume: fc.integer({ min: 0, max: 5 }),
          days: fc.integer({ min: -3, max: 3 }),
          closed: fc.boolean(),
        }),
        { minLength: 1, maxLength: 30 },
      ),
      fc.oneof(fc.constantFrom(...words, 'no such', 'ion h', 'ba'), fc.string({ maxLength: 4 })),
      fc.constantFrom<CatalogStatus>('active', 'closed', 'all'),
      fc.option(fc.integer({ min: -4, max: 4 }), { nil: undefined }),
      fc.integer({ min: 0, max: 35 }),
      fc.integer({ min: 1, max: 10 }),
      async (events, search, status, expiredInDays, offset, limit) => {
        const views = new EntryViews();
        const shared = new Interner();
        const entries = events.map(({ title, volume, days, closed }, index) => {
          const event = fixtureEvent('alpha', `a${index}`, { title: title.join(' '), volume24h: volume, resolvesInDays: days, closed });
          return new StoredEntry(catalogEntry('alpha', event), { bytes: Buffer.from(JSON.stringify(event)), refs: '' }, views, shared);
        });
        const expiredBy = expiredInDays === undefined ? undefined : now + expiredInDays * day;
        const open = (entry: StoredEntry) => !entry.closed && (expiredBy === undefined || entry.closesAt === null || entry.closesAt > expiredBy);
        const expected = [...entries]
          .sort(routerOrder)
          .filter((entry) => entry.search.includes(search) && (status === 'all' || open(entry) === (status === 'active')));
        const partition = await VenuePartition.build(sweepRecord('alpha', 'alpha-1', []), entries);
        const query = { search, status, order: 'router', limit, offset, ...(expiredBy === undefined ? {} : { expiredBy }) } as const;
        // Scanned before the index is built, found through it after, and again from what the first search kept.
        for (const warm of [false, true, false]) {
          if (warm) await partition.warm();
          const found = partition.eventMatches(query);
          expect(found.total).toBe(expected.length);
          expect([...found.items()]).toEqual(expected);
          expect(found.slice(offset, offset + limit)).toEqual(expected.slice(offset, offset + limit));
        }
      },
    ),
    { numRuns: 60, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
  );
});

test('a text under three characters is found through the index once built, as the scan finds it, and kept', async () => {
  const views = new EntryViews();
  const shared = new Interner();
  const titles = ['AI chips above 10%', 'UK election: Labour', 'F1 Monaco winner', 'Fed rate cut', 'Bitcoin above 100k'];
  const entries = titles.map((title, index) => {
    const event = fixtureEvent('alpha', `a${index}`, { title, volume24h: titles.length - index, resolvesInDays: 3 });
    return new StoredEntry(catalogEntry('alpha', event), { bytes: Buffer.from(JSON.stringify(event)), refs: '' }, views, shared);
  });
  const search = new TextSearch(entries);
  const scanned = (text: string) => entries.filter((entry) => entry.search.includes(text));
  expect(search.entries('ai')).toBeUndefined();
  await search.build();
  for (const text of ['ai', 'uk', 'f1', 'e', 'ov', '%', 'zq', 'ü', '']) expect(search.entries(text)).toEqual(scanned(text));
  expect(search.entries('f1')?.map((entry) => entry.venueEventId)).toEqual(['a2']);
  expect(search.matches('uk', 'active', undefined)?.slice(0, 10)).toEqual(scanned('uk'));
});
