import fc from 'fast-check';
import { expect, test } from 'vitest';
import { fixtureEvent, now, sampleCatalog, sweepRecord } from '../../test/fixtures.js';
import { catalogEntry } from '../document.js';
import { Interner } from './interner.js';
import { VenuePartition, byVolume } from './partition.js';
import { EntryViews, StoredEntry } from './stored-entry.js';

test('sorting by volume first gives exactly what the full comparator gives, ties included', () => {
  const order = (a: { volume24h: number; id: string }, b: { volume24h: number; id: string }) =>
    b.volume24h - a.volume24h || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          volume24h: fc.oneof(fc.constantFrom(0, -0, 1, 2.5, -1, Infinity, -Infinity), fc.double({ noNaN: true })),
          id: fc.string({ maxLength: 3 }),
        }),
        { maxLength: 200 },
      ),
      (items) => {
        expect(byVolume(items, order)).toEqual([...items].sort(order));
      },
    ),
    { numRuns: 300 },
  );
});

test('0 and -0 are one volume: kept in input order, as the comparator sort keeps them', () => {
  const order = (a: { volume24h: number; id: string }, b: { volume24h: number; id: string }) => b.volume24h - a.volume24h;
  for (const items of [
    [
      { volume24h: -0, id: 'a' },
      { volume24h: 0, id: 'b' },
      { volume24h: Infinity, id: 'c' },
    ],
    [
      { volume24h: 0, id: 'a' },
      { volume24h: -0, id: 'b' },
      { volume24h: 1, id: 'c' },
    ],
  ]) {
    expect(byVolume(items, order).map((item) => item.id)).toEqual([...items].sort(order).map((item) => item.id));
  }
});

test('input already by volume, ties in any order (a snapshot in venue order read for the Router), gives the full order too', () => {
  const order = (a: { volume24h: number; id: string }, b: { volume24h: number; id: string }) =>
    b.volume24h - a.volume24h || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  fc.assert(
    fc.property(fc.array(fc.record({ volume24h: fc.constantFrom(0, 1, 2, 3), id: fc.string({ maxLength: 3 }) }), { maxLength: 80 }), (items) => {
      const byVolumeOnly = [...items].sort((a, b) => b.volume24h - a.volume24h);
      expect(byVolume(byVolumeOnly, order)).toEqual([...items].sort(order));
    }),
    { numRuns: 300 },
  );
});

test('a search before the trigram index is built scans, and finds what the index finds after', async () => {
  const events = Object.entries(sampleCatalog()).flatMap(([venue, list]) => list.map((event) => ({ venue, event })));
  const views = new EntryViews();
  const shared = new Interner();
  const entries = events
    .filter(({ venue }) => venue === 'alpha')
    .map(({ venue, event }) => new StoredEntry(catalogEntry(venue, event), { bytes: Buffer.from(JSON.stringify(event)), refs: '' }, views, shared));
  const partition = await VenuePartition.build(sweepRecord('alpha', 'alpha-1', []), entries);
  const found = (search: string) =>
    [...partition.eventMatches({ search, status: 'all', order: 'router', limit: 10, offset: 0 }).items()].map((entry) => entry.venueEventId);
  const searches = ['bitcoin', 'dec', 'harbor city', 'nowhere'];
  const scanned = searches.map(found);
  await partition.warm();
  expect(searches.map(found)).toEqual(scanned);
  expect(scanned[0]).toEqual(['a1', 'a4']);
});

test('market queries answer the same whether the rows were made by the first query, while warming, or after it', async () => {
  const views = new EntryViews();
  const shared = new Interner();
  const alpha = sampleCatalog().alpha!;
  const build = () =>
    VenuePartition.build(
      sweepRecord('alpha', 'alpha-1', []),
      alpha.map((event) => new StoredEntry(catalogEntry('alpha', event), { bytes: Buffer.from(JSON.stringify(event)), refs: '' }, views, shared)),
    );
  const market = alpha[0]!.markets[0]!;
  const queries = [
    { status: 'all' },
    { status: 'active' },
    { status: 'closed' },
    { status: 'all', marketId: market.marketId },
    { status: 'all', outcomeId: market.outcomes[0]!.outcomeId },
    { status: 'active', category: catalogEntry('alpha', alpha[0]!).category },
  ] as const;
  const answers = (partition: VenuePartition) =>
    queries.map((query) => [...partition.marketMatches({ limit: 100, offset: 0, ...query }).items()].map((row) => `${row.entry.venueEventId}/${row.marketId}`));
  const first = answers(await build());
  const warming = await build();
  const warmed = warming.warm();
  expect(answers(warming)).toEqual(first);
  await warmed;
  expect(answers(warming)).toEqual(first);
  expect(first[3]).toEqual([`${alpha[0]!.id}/${market.marketId}`]);
  expect(first[0]!.length).toBe(alpha.reduce((sum, event) => sum + event.markets.length, 0));
});

test('a page of open events past expired ones is the same page as filtering them out, at any offset, as more expire', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ volume: fc.integer({ min: 0, max: 5 }), days: fc.integer({ min: -3, max: 3 }) }), { minLength: 1, maxLength: 40 }),
      fc.integer({ min: -4, max: 4 }),
      fc.integer({ min: 0, max: 45 }),
      fc.integer({ min: 1, max: 10 }),
      async (events, expiredInDays, offset, limit) => {
        const views = new EntryViews();
        const shared = new Interner();
        const entries = events.map(({ volume, days }, index) => {
          const event = fixtureEvent('alpha', `a${index}`, { volume24h: volume, resolvesInDays: days });
          return new StoredEntry(catalogEntry('alpha', event), { bytes: Buffer.from(JSON.stringify(event)), refs: '' }, views, shared);
        });
        const partition = await VenuePartition.build(sweepRecord('alpha', 'alpha-1', []), entries);
        // Earlier times first: the expired events only grow, as they do while a partition is served.
        for (const days of [expiredInDays - 1, expiredInDays]) {
          const expiredBy = now + days * 24 * 3600 * 1000;
          const query = { status: 'active', order: 'router', expiredBy, limit, offset } as const;
          const all = [...partition.eventMatches({ ...query, offset: 0, limit: events.length }).items()];
          const open = partition.eventMatches(query);
          const expected = [...partition.eventMatches({ status: 'all', order: 'router', limit: 0, offset: 0 }).items()].filter(
            (entry) => !entry.closed && (entry.closesAt === null || entry.closesAt > expiredBy),
          );
          expect(all).toEqual(expected);
          expect(open.total).toBe(expected.length);
          expect(open.slice(offset, offset + limit)).toEqual(expected.slice(offset, offset + limit));
        }
      },
    ),
    { numRuns: 200 },
  );
});
