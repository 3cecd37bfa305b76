import { Query } from 'mingo';
import { beforeAll, describe, expect, test } from 'vitest';
import { EmbeddedCatalogStore } from '../embedded/embedded-store.js';
import { catalogEntry, catalogEventId } from '../document.js';
import {
  entryFromDocument,
  eventDocument,
  eventFilter,
  eventIndexes,
  eventSort,
  marketDocuments,
  marketFilter,
  marketIndexes,
  marketSort,
} from './documents.js';
import type { EventDocument, MarketDocument } from './documents.js';
import type { EventQuery, MarketQuery } from '../store.js';
import { entries, now, sampleCatalog, sweepRecord } from '../../test/fixtures.js';

/**
 * The MongoDB store's filters and sorts are pure functions. Here
 * mingo evaluates them over the store's documents, directly, and must agree
 * with the embedded store on the same catalog and the same queries.
 */
const sweeps = ['alpha-1', 'beta-1', 'gamma-1'];
const documents: EventDocument[] = Object.entries(sampleCatalog()).flatMap(([venue, events]) =>
  entries(venue, events).map((entry) => eventDocument(entry, `${venue}-1`)),
);
// A stale document of an older sweep: it must never be read.
documents.push({ ...documents[0]!, _id: 'stale', sweep: 'alpha-0', volume24h: 1e9 });
const markets: MarketDocument[] = Object.entries(sampleCatalog()).flatMap(([venue, events]) =>
  entries(venue, events).flatMap((entry) => marketDocuments(entry, `${venue}-1`)),
);
markets.push({ ...markets[0]!, _id: 'stale', sweep: 'alpha-0', volume24h: 1e9 });

let embedded: EmbeddedCatalogStore;
beforeAll(async () => {
  embedded = new EmbeddedCatalogStore();
  for (const [venue, events] of Object.entries(sampleCatalog())) {
    const writer = await embedded.beginSweep(venue, `${venue}-1`);
    await writer.add(entries(venue, events));
    await writer.commit(sweepRecord(venue, `${venue}-1`, events));
  }
});

function mingoEvents(query: EventQuery): { ids: string[]; total: number } {
  const matched = new Query(eventFilter(query, sweeps)).find<EventDocument>(documents).sort(eventSort(query.order)).all();
  return { ids: matched.slice(query.offset, query.offset + query.limit).map((document) => document.id), total: matched.length };
}

const eventQueries: Array<[string, EventQuery]> = [
  ['the Router default page', { status: 'active', order: 'router', expiredBy: now, limit: 50, offset: 0 }],
  ['a second Router page', { status: 'all', order: 'router', limit: 3, offset: 3 }],
  ['closed events', { status: 'closed', order: 'router', expiredBy: now, limit: 50, offset: 0 }],
  ['search', { status: 'active', order: 'router', expiredBy: now, search: 'bitcoin', limit: 50, offset: 0 }],
  ['a search on slugs', { status: 'all', order: 'router', search: 'event-g', limit: 50, offset: 0 }],
  ['venue and category', { status: 'all', order: 'router', venue: 'alpha', category: 'Crypto', limit: 50, offset: 0 }],
  ['a venue list', { status: 'all', order: 'venue', venue: 'alpha', limit: 50, offset: 0 }],
  ['title and tags', { status: 'all', order: 'venue', venue: 'beta', title: 'bitcoin', tags: ['daily'], limit: 50, offset: 0 }],
  ['venue category', { status: 'all', order: 'venue', venue: 'beta', venueCategory: 'pop culture', limit: 50, offset: 0 }],
  ['lookups', { status: 'all', order: 'venue', venue: 'alpha', outcomeId: 'a2-m1-no', limit: 50, offset: 0 }],
  ['a UUID', { status: 'all', order: 'router', id: catalogEventId('gamma', 'g2'), limit: 50, offset: 0 }],
];

describe('event queries evaluated by mingo agree with the embedded store', () => {
  test.each(eventQueries)('%s', async (_title, query) => {
    const expected = await embedded.events(query);
    expect(mingoEvents(query)).toEqual({ ids: expected.items.map((entry) => entry.id), total: expected.total });
  });
});

const marketQueries: Array<[string, MarketQuery]> = [
  ['all markets', { status: 'all', limit: 50, offset: 0, withTotal: true }],
  ['a page of one venue', { venue: 'beta', status: 'all', limit: 2, offset: 2, withTotal: true }],
  ['open markets of a category', { status: 'active', category: 'Crypto', limit: 50, offset: 0, withTotal: true }],
  ['by outcome id', { status: 'all', outcomeId: 'b1-m2-yes', limit: 50, offset: 0, withTotal: true }],
  ['by title and tags', { status: 'all', title: 'fed', tags: ['rates'], limit: 50, offset: 0, withTotal: true }],
  ['closed markets', { status: 'closed', limit: 50, offset: 0, withTotal: true }],
  ['a venue category', { venue: 'beta', venueCategory: 'pop culture', status: 'all', limit: 50, offset: 0, withTotal: true }],
  ['by event', { eventUuid: catalogEventId('alpha', 'a2'), status: 'active', limit: 50, offset: 0, withTotal: true }],
  ['by venue event id', { venue: 'beta', venueEventId: 'b1', status: 'all', limit: 2, offset: 1, withTotal: true }],
  ['by market slug', { slug: 'g2-market-1', status: 'all', limit: 50, offset: 0, withTotal: true }],
];

describe('market queries evaluated by mingo agree with the embedded store', () => {
  test.each(marketQueries)('%s', async (_title, query) => {
    const expected = await embedded.markets(query);
    const matched = new Query(marketFilter(query, sweeps))
      .find<MarketDocument>(markets)
      .sort({ ...marketSort })
      .all();
    expect({ marketIds: matched.slice(query.offset, query.offset + query.limit).map((document) => document.marketId), total: matched.length }).toEqual({
      marketIds: expected.items.map((hit) => hit.market.marketId),
      total: expected.total,
    });
  });
});

describe('the documents', () => {
  test('are the Router event, nested, with the index fields and the venue event beside it', () => {
    const document = documents.find((candidate) => candidate.venueEventId === 'b1')!;
    expect(document).toMatchObject({
      _id: `${catalogEventId('beta', 'b1')}:beta-1`,
      id: catalogEventId('beta', 'b1'),
      sourceExchange: 'beta',
      category: 'Sports',
      sweep: 'beta-1',
      closed: false,
      marketIds: ['b1-m0', 'b1-m1', 'b1-m2'],
    });
    expect(document.markets).toHaveLength(3);
    expect(document.markets[0]!.outcomes).toHaveLength(2);
    expect(document.source.id).toBe('b1');
  });

  test("hold the Router view's bytes made when swept, which an entry read back serves as they are", () => {
    for (const document of documents) {
      const entry = catalogEntry(document.venue, document.source);
      expect(Buffer.from(document.routerJson!.value()).toString('utf8')).toBe(JSON.stringify(entry.router));
      expect(entryFromDocument(document).routerJson?.toString('utf8')).toBe(JSON.stringify(entry.router));
    }
    const { routerJson: _bytes, ...earlier } = documents[0]!;
    expect(entryFromDocument(earlier).routerJson).toBeUndefined();
  });

  test('every index leads with a field its queries filter on', () => {
    const queried = new Set(['sweep', 'id', 'venue', 'slug', 'marketIds', 'outcomeIds']);
    for (const index of eventIndexes) expect(queried.has(Object.keys(index.key)[0]!), index.name).toBe(true);
  });

  test('a market document is one market of one event in one sweep, with the venue market as it came', () => {
    const [entry] = entries('beta', [sampleCatalog().beta![0]!]);
    const [, second] = marketDocuments(entry!, 'beta-2');
    expect(second).toEqual({
      _id: `${catalogEventId('beta', 'b1')}:1:beta-2`,
      sweep: 'beta-2',
      venue: 'beta',
      eventUuid: catalogEventId('beta', 'b1'),
      venueEventId: 'b1',
      position: 1,
      ...entry!.marketKeys[1],
      market: sampleCatalog().beta![0]!.markets[1],
    });
  });

  test('every market index leads with a field market queries pin', () => {
    const pinned = new Set(['sweep', 'eventUuid', 'venue', 'marketId', 'outcomeIds', 'slug']);
    for (const index of marketIndexes) expect(pinned.has(Object.keys(index.key)[0]!), index.name).toBe(true);
  });

  test('event documents no longer carry market keys; an entry read back derives them from the venue event', () => {
    const document = documents.find((candidate) => candidate.venueEventId === 'a2')!;
    expect('marketKeys' in document).toBe(false);
    expect(entryFromDocument(document).marketKeys).toEqual(entries('alpha', [sampleCatalog().alpha![1]!])[0]!.marketKeys);
  });
});
