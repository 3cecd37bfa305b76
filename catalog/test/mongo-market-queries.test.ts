import { readFileSync } from 'node:fs';
import type { CommandStartedEvent, Document } from 'mongodb';
import { describe, expect, test } from 'vitest';
import { catalogEventId } from '../src/document.js';
import { marketIndexes, marketSort } from '../src/mongo/documents.js';
import type { MarketQuery } from '../src/store.js';
import { entries, fixtureEvent, sampleCatalog, sweepRecord } from './fixtures.js';
import { indexUse } from './index-use.js';
import { recordedMongoStore } from './recorded-mongo.js';

type IndexName = (typeof marketIndexes)[number]['name'];
const indexKey = (name: IndexName) => marketIndexes.find((index) => index.name === name)!.key;

/**
 * The market query shapes the README documents, each with the filter fields
 * the store sends, the index the README names and the filter fields that
 * index leaves to be tested document by document.
 */
const shapes: Array<[string, Omit<MarketQuery, 'limit' | 'offset'>, string, IndexName, string[]]> = [
  ['markets by 24h volume, any status', { status: 'all' }, 'sweep trading', 'markets_by_volume', []],
  ['open markets by 24h volume', { status: 'active' }, 'sweep trading', 'markets_by_volume', []],
  ["one venue's markets", { venue: 'beta', status: 'all' }, 'sweep venue trading', 'markets_venue_by_volume', []],
  ["one venue's closed markets", { venue: 'alpha', status: 'closed' }, 'sweep venue trading', 'markets_venue_by_volume', []],
  ['a normalised category', { category: 'Crypto', status: 'active' }, 'sweep trading normalizedCategory', 'markets_category_by_volume', []],
  [
    'a venue and a normalised category',
    { venue: 'beta', category: 'Crypto', status: 'all' },
    'sweep venue trading normalizedCategory',
    'markets_venue_by_volume',
    ['normalizedCategory'],
  ],
  [
    "a venue and the venue's category",
    { venue: 'beta', venueCategory: 'pop culture', status: 'all' },
    'sweep venue trading category',
    'markets_venue_by_volume',
    ['category'],
  ],
  ['tags', { tags: ['daily'], status: 'all' }, 'sweep trading tags', 'markets_by_volume', ['tags']],
  ['title substring', { title: 'bitcoin', status: 'active' }, 'sweep trading title', 'markets_by_volume', ['title']],
  [
    "title substring in a venue's markets",
    { venue: 'alpha', title: 'bitcoin', status: 'all' },
    'sweep venue trading title',
    'markets_venue_by_volume',
    ['title'],
  ],
  [
    "an event's markets by catalog UUID",
    { eventUuid: catalogEventId('gamma', 'g2'), status: 'all' },
    'sweep trading eventUuid',
    'markets_by_event',
    ['trading'],
  ],
  [
    "an event's markets by venue event id",
    { venue: 'alpha', venueEventId: 'a3', status: 'active' },
    'sweep venue trading venueEventId',
    'markets_by_venue_event_id',
    ['trading'],
  ],
  ['a market id', { marketId: 'a2-m1', status: 'all' }, 'sweep trading marketId', 'markets_by_market_id', ['trading']],
  [
    'a market id in a venue',
    { venue: 'alpha', marketId: 'a2-m1', status: 'all' },
    'sweep venue trading marketId',
    'markets_by_market_id',
    ['venue', 'trading'],
  ],
  ['an outcome id', { outcomeId: 'b2-m1-yes', status: 'all' }, 'sweep trading outcomeIds', 'markets_by_outcome_id', ['trading']],
  ['a market slug', { venue: 'alpha', slug: 'a1-market-0', status: 'all' }, 'sweep venue trading slug', 'markets_by_slug', ['venue', 'trading']],
];

describe('the queries MongoCatalogStore sends for market pages', () => {
  const mongo = recordedMongoStore('predgate_market_queries');

  test.each(shapes)('%s: one find on markets, sorted by the index it names', async (_title, shape, filterKeys, index, residual) => {
    const commands = await mongo.commandsOf(() => mongo.store().markets({ ...shape, limit: 5, offset: 0 }));
    expect(commands.map((event) => event.commandName)).toEqual(['find']);
    const find = commands[0]!.command;
    expect(find.find).toBe('markets');
    // The driver sends a sort as a Map, its order kept.
    const sort = Object.fromEntries(find.sort as Map<string, 1 | -1>);
    expect(Object.entries(sort)).toEqual(Object.entries(marketSort));
    expect(Object.keys(find.filter as Document)).toEqual(filterKeys.split(' '));
    const use = indexUse(indexKey(index), find.filter as Record<string, unknown>, sort);
    expect(use.bounds.length, `${index} bounds the reads`).toBeGreaterThan(0);
    expect(use.sorted, `${index} yields the market order`).toBe(true);
    expect(use.residual.sort()).toEqual([...residual].sort());
  });

  test.each(shapes)('%s, counted: the same filter counted on markets, without $unwind', async (_title, shape) => {
    const commands = await mongo.commandsOf(() => mongo.store().markets({ ...shape, limit: 5, offset: 0, withTotal: true }));
    const find = commands.find((event) => event.commandName === 'find')!.command;
    const count = commands.find((event) => event.commandName === 'aggregate')!.command;
    expect(commands).toHaveLength(2);
    expect(count.aggregate).toBe('markets');
    const pipeline = count.pipeline as Document[];
    expect(pipeline[0]).toEqual({ $match: find.filter });
    expect(pipeline.flatMap((stage) => Object.keys(stage))).toEqual(['$match', '$group']);
  });

  test('every documented shape finds what the contract says it does', async () => {
    const page = await mongo.store().markets({ venue: 'beta', status: 'all', limit: 2, offset: 2, withTotal: true });
    expect({ ids: page.items.map((hit) => hit.market.marketId), total: page.total }).toEqual({ ids: ['b1-m0', 'b1-m1'], total: 7 });
    expect(page.items[0]).toEqual({ venue: 'beta', eventId: catalogEventId('beta', 'b1'), venueEventId: 'b1', market: sampleCatalog().beta![0]!.markets[0] });
  });

  test("a sweep's deletes use the declared indexes: the sweep's own, a repeated event's, the superseded sweeps'", async () => {
    const deletes = (commands: CommandStartedEvent[]) =>
      commands
        .filter((event) => event.commandName === 'delete' && event.command.delete === 'markets')
        .map((event) => (event.command.deletes as Document[])[0]!.q as Document);
    const writer = await mongo.store().beginSweep('gamma', 'gamma-2');
    await writer.add(entries('gamma', [fixtureEvent('gamma', 'g1', { markets: 3 })]));
    const [repeated] = deletes(await mongo.commandsOf(() => writer.add(entries('gamma', [fixtureEvent('gamma', 'g1', { markets: 1 })]))));
    expect(indexUse(indexKey('markets_by_event'), repeated!, {}).bounds).toEqual(['eventUuid', 'sweep']);
    const [aborted] = deletes(await mongo.commandsOf(() => writer.abort()));
    expect(indexUse(indexKey('markets_by_volume'), aborted!, {}).bounds).toEqual(['sweep']);
    const next = await mongo.store().beginSweep('gamma', 'gamma-3');
    await next.add(entries('gamma', sampleCatalog().gamma!));
    const [superseded] = deletes(await mongo.commandsOf(() => next.commit(sweepRecord('gamma', 'gamma-3', sampleCatalog().gamma!))));
    expect(indexUse(indexKey('markets_by_venue_sweep'), superseded!, {}).bounds).toEqual(['venue']);
  });
});

describe('the index check', () => {
  const key = { sweep: 1, trading: 1, volume24h: -1, venue: 1, marketId: 1 } as const;
  const sort = { volume24h: -1, venue: 1, marketId: 1 } as const;

  test('pinned leading fields bound the reads; the sort follows them', () => {
    expect(indexUse(key, { sweep: { $in: ['a', 'b'] }, trading: true }, sort)).toEqual({ bounds: ['sweep', 'trading'], sorted: true, residual: [] });
  });

  test('a field left open before the sort fields breaks the order', () => {
    expect(indexUse(key, { sweep: { $in: ['a'] } }, sort)).toMatchObject({ bounds: ['sweep'], sorted: false });
  });

  test('a regular expression or a range is no point', () => {
    expect(indexUse(key, { sweep: 'a', trading: { $regex: 'x' } }, sort)).toMatchObject({ bounds: ['sweep'], sorted: false, residual: ['trading'] });
    expect(indexUse(key, { sweep: { $nin: ['a'] }, trading: true }, sort)).toMatchObject({ bounds: [], sorted: false });
  });

  test('the index read backwards serves the reversed sort, but not a mixed one', () => {
    const filter = { sweep: 'a', trading: false };
    expect(indexUse(key, filter, { volume24h: 1, venue: -1, marketId: -1 }).sorted).toBe(true);
    expect(indexUse(key, filter, { volume24h: -1, venue: -1, marketId: 1 }).sorted).toBe(false);
  });

  test('a sort field the filter pins needs no place in the index', () => {
    expect(indexUse({ marketId: 1, sweep: 1, volume24h: -1, venue: 1 }, { sweep: 'a', marketId: 'm' }, sort).sorted).toBe(true);
    expect(indexUse({ marketId: 1, sweep: 1, volume24h: -1 }, { sweep: 'a', marketId: 'm' }, sort).sorted).toBe(false);
  });
});

test('the README names every market index', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  for (const index of marketIndexes) expect(readme, index.name).toContain(`\`${index.name}\``);
});
