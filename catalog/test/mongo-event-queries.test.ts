import { readFileSync } from 'node:fs';
import type { CommandStartedEvent, Document } from 'mongodb';
import { describe, expect, test } from 'vitest';
import { catalogEventId } from '../src/document.js';
import { eventIndexes, eventSort } from '../src/mongo/documents.js';
import { routerEventQuery } from '../src/router-calls.js';
import type { RouterParams } from '../src/router-calls.js';
import type { EventQuery } from '../src/store.js';
import { entries, fixtureEvent, now, sampleCatalog, sweepRecord } from './fixtures.js';
import { indexUse } from './index-use.js';
import { recordedMongoStore } from './recorded-mongo.js';

type IndexName = (typeof eventIndexes)[number]['name'];
const indexKey = (name: IndexName) => eventIndexes.find((index) => index.name === name)!.key;

// Built the way the gateway builds them, so the test follows the queries it really sends.
const router = (params: Omit<RouterParams, 'limit'>, lookupKey?: string): EventQuery => routerEventQuery({ ...params, limit: 5 }, now, lookupKey);
// As pass-through.ts does for a catalog-served venue call: the venue's order, no expiry.
const venueCall = (venue: string, query: Omit<EventQuery, 'venue' | 'order' | 'limit' | 'offset'>): EventQuery => ({
  venue,
  order: 'venue',
  limit: 5,
  offset: 0,
  ...query,
});

const uuid = catalogEventId('gamma', 'g2');

interface Shape {
  query: EventQuery;
  /** The filter fields the store sends, in order. */
  filter: string;
  index: IndexName;
  /** The leading index fields the filter pins. */
  bounds: string;
  /** Listings get their order from the index; a lookup sorts the few events it finds. */
  sorted: boolean;
  /** Filter fields tested on each event the ranges yield. */
  residual: string[];
}

/** The event query shapes the README documents, each with the index it names and how that index serves it. */
const shapes: Array<[string, Shape]> = [
  [
    '/v0/events default: open events by 24h volume',
    { query: router({}), filter: 'sweep closed $and', index: 'router_open_by_volume', bounds: 'sweep closed', sorted: true, residual: ['$and'] },
  ],
  [
    '/v0/events?closed=true: events of any status by 24h volume',
    { query: router({ status: 'all' }), filter: 'sweep closed', index: 'router_open_by_volume', bounds: 'sweep closed', sorted: true, residual: [] },
  ],
  [
    'Router fetchEvents({status: closed}): closed or expired events',
    {
      query: router({ status: 'closed' }),
      filter: 'sweep closed $and',
      index: 'router_open_by_volume',
      bounds: 'sweep closed',
      sorted: true,
      residual: ['$and'],
    },
  ],
  [
    '/v0/events?category=: a normalised category',
    {
      query: router({ category: 'crypto' }),
      filter: 'sweep closed category $and',
      index: 'router_category_by_volume',
      bounds: 'sweep closed category',
      sorted: true,
      residual: ['$and'],
    },
  ],
  [
    '/v0/events?sourceExchange=: one venue',
    {
      query: router({ sourceExchange: 'beta' }),
      filter: 'sweep venue closed $and',
      index: 'router_venue_by_volume',
      bounds: 'sweep venue closed',
      sorted: true,
      residual: ['$and'],
    },
  ],
  [
    '/v0/events?q=: a substring of title or slug',
    {
      query: router({ query: 'Bitcoin' }),
      filter: 'sweep closed search $and',
      index: 'router_open_by_volume',
      bounds: 'sweep closed',
      sorted: true,
      residual: ['search', '$and'],
    },
  ],
  [
    'Router fetchEvents({tags})',
    {
      query: router({ tags: ['Daily'] }),
      filter: 'sweep closed tagKeys $and',
      index: 'router_open_by_volume',
      bounds: 'sweep closed',
      sorted: true,
      residual: ['tagKeys', '$and'],
    },
  ],
  [
    "catalog-served fetchEvents: one venue's open events in venue order",
    {
      query: venueCall('alpha', { status: 'active' }),
      filter: 'sweep venue closed',
      index: 'venue_by_volume',
      bounds: 'sweep venue',
      sorted: true,
      residual: ['closed'],
    },
  ],
  [
    "catalog-served fetchEvents({status: all}): one venue's events in venue order",
    {
      query: venueCall('beta', { status: 'all' }),
      filter: 'sweep venue closed',
      index: 'venue_by_volume',
      bounds: 'sweep venue',
      sorted: true,
      residual: ['closed'],
    },
  ],
  [
    'catalog-served fetchEvents({query}): a title substring',
    {
      query: venueCall('alpha', { status: 'active', title: 'bitcoin' }),
      filter: 'sweep venue closed titleKey',
      index: 'venue_by_volume',
      bounds: 'sweep venue',
      sorted: true,
      residual: ['closed', 'titleKey'],
    },
  ],
  [
    "catalog-served fetchEvents({category, tags}): the venue's category and tags",
    {
      query: venueCall('beta', { status: 'all', venueCategory: 'crypto', tags: ['daily'] }),
      filter: 'sweep venue closed venueCategory tagKeys',
      index: 'venue_by_volume',
      bounds: 'sweep venue',
      sorted: true,
      residual: ['closed', 'venueCategory', 'tagKeys'],
    },
  ],
  [
    'Router fetchEvent({eventId}): by catalog UUID',
    { query: router({ eventId: uuid }, uuid), filter: 'sweep closed id', index: 'by_uuid', bounds: 'id sweep', sorted: false, residual: ['closed'] },
  ],
  [
    'catalog-served fetchEvent({eventId}): by venue event id',
    {
      query: venueCall('alpha', { status: 'all', venueEventId: 'a2' }),
      filter: 'sweep venue closed venueEventId',
      index: 'by_venue_event_id',
      bounds: 'venue venueEventId sweep',
      sorted: false,
      residual: ['closed'],
    },
  ],
  [
    'catalog-served fetchEvent({slug}): by slug',
    {
      query: venueCall('alpha', { status: 'all', slug: 'event-a1' }),
      filter: 'sweep venue closed slug',
      index: 'by_slug_then_venue',
      bounds: 'slug venue',
      sorted: false,
      residual: ['sweep', 'closed'],
    },
  ],
  [
    'Router fetchEvent({slug}): by slug across venues',
    {
      query: router({ slug: 'event-a1' }, 'event-a1'),
      filter: 'sweep closed slug',
      index: 'by_slug_then_venue',
      bounds: 'slug',
      sorted: false,
      residual: ['sweep', 'closed'],
    },
  ],
  [
    'Router fetchEvents({marketId}): events holding a market',
    {
      query: router({ marketId: 'a2-m1' }),
      filter: 'sweep closed marketIds $and',
      index: 'by_market_id',
      bounds: 'marketIds',
      sorted: false,
      residual: ['sweep', 'closed', '$and'],
    },
  ],
  [
    'catalog-served fetchEvents({marketId}): events holding a market',
    {
      query: venueCall('alpha', { status: 'active', marketId: 'a2-m1' }),
      filter: 'sweep venue closed marketIds',
      index: 'by_market_id',
      bounds: 'marketIds',
      sorted: false,
      residual: ['sweep', 'venue', 'closed'],
    },
  ],
  [
    'Router fetchEvents({outcomeId}): events holding an outcome',
    {
      query: router({ outcomeId: 'b2-m1-yes' }),
      filter: 'sweep closed outcomeIds $and',
      index: 'by_outcome_id',
      bounds: 'outcomeIds',
      sorted: false,
      residual: ['sweep', 'closed', '$and'],
    },
  ],
  [
    'catalog-served fetchEvents({outcomeId}): events holding an outcome',
    {
      query: venueCall('beta', { status: 'all', outcomeId: 'b2-m1-yes' }),
      filter: 'sweep venue closed outcomeIds',
      index: 'by_outcome_id',
      bounds: 'outcomeIds',
      sorted: false,
      residual: ['sweep', 'venue', 'closed'],
    },
  ],
];

/** The indexes the README table names in its rows, by the text of the row's first cell. */
function readmeIndexes(): Array<{ shape: string; indexes: string[] }> {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const table = readme.slice(readme.indexOf('The query shapes the store issues'));
  const rows = table.slice(0, table.indexOf('\n\n', table.indexOf('| Query shape'))).split('\n');
  return rows
    .filter((row) => row.startsWith('|') && !row.startsWith('|---') && !row.startsWith('| Query shape'))
    .map((row) => {
      // Escaped pipes (`\|`) sit inside cells; the index is the last cell. Index names have an underscore,
      // which tells them from the field names the cell may quote (`sweep`).
      const cells = row.split(/(?<!\\)\|/).slice(1, -1);
      return { shape: cells[0]!.trim(), indexes: [...cells.at(-1)!.matchAll(/`([a-z]+_[a-z_]+)`/g)].map((match) => match[1]!) };
    });
}

const used = new Set<string>();

describe('the queries MongoCatalogStore sends for event pages', () => {
  const mongo = recordedMongoStore('predgate_event_queries');

  test.each(shapes)('%s: one find on events, read through the index the README names', async (_title, shape) => {
    const commands = await mongo.commandsOf(() => mongo.store().events(shape.query));
    expect(commands.map((event) => event.commandName)).toEqual(['find']);
    const find = commands[0]!.command;
    expect(find.find).toBe('events');
    expect(Object.keys(find.filter as Document)).toEqual(shape.filter.split(' '));
    // The driver sends a sort as a Map, its order kept.
    const sort = Object.fromEntries(find.sort as Map<string, 1 | -1>);
    expect(Object.entries(sort)).toEqual(Object.entries(eventSort(shape.query.order)));
    const use = indexUse(indexKey(shape.index), find.filter as Record<string, unknown>, sort);
    expect(use.bounds, `${shape.index} bounds the reads`).toEqual(shape.bounds.split(' '));
    expect(use.sorted, `${shape.index} yields the order`).toBe(shape.sorted);
    expect(use.residual.sort()).toEqual([...shape.residual].sort());
    used.add(shape.index);
  });

  test.each(shapes)('%s: the events it finds', async (_title, shape) => {
    // The shapes are only worth checking if they find something: the fixtures hold a match for each.
    const page = await mongo.store().events(shape.query);
    expect(page.items.length).toBeGreaterThan(0);
  });

  test('a lookup that the index does not order finds at most one event per key and venue', async () => {
    // Unique over (id, sweep) and (venue, venueEventId, sweep), and one visible sweep per venue:
    // the order the index cannot give is over a single event.
    for (const name of ['by_uuid', 'by_venue_event_id'] as const) expect(eventIndexes.find((index) => index.name === name)).toMatchObject({ unique: true });
    const [byUuid, byVenueEventId] = await Promise.all([
      mongo.store().events(router({ eventId: uuid }, uuid)),
      mongo.store().events(venueCall('alpha', { status: 'all', venueEventId: 'a2' })),
    ]);
    expect([byUuid.items.map((entry) => entry.id), byVenueEventId.items.map((entry) => entry.venueEventId)]).toEqual([[uuid], ['a2']]);
  });

  test.each(shapes)('%s, counted: the same filter counted on events', async (_title, shape) => {
    const commands = await mongo.commandsOf(() => mongo.store().events({ ...shape.query, withTotal: true }));
    expect(commands.map((event) => event.commandName).sort()).toEqual(['aggregate', 'find']);
    const find = commands.find((event) => event.commandName === 'find')!.command;
    const count = commands.find((event) => event.commandName === 'aggregate')!.command;
    expect(count.aggregate).toBe('events');
    const pipeline = count.pipeline as Document[];
    expect(pipeline[0]).toEqual({ $match: find.filter });
    expect(pipeline.flatMap((stage) => Object.keys(stage))).toEqual(['$match', '$group']);
  });

  test('/v0/events/{id}: eventById reads by_uuid', async () => {
    const commands = await mongo.commandsOf(() => mongo.store().eventById(uuid));
    expect(commands.map((event) => [event.commandName, event.command.find])).toEqual([['find', 'events']]);
    const filter = commands[0]!.command.filter as Record<string, unknown>;
    expect(indexUse(indexKey('by_uuid'), filter, {})).toEqual({ bounds: ['id', 'sweep'], sorted: true, residual: [] });
  });

  test("a sweep's event deletes use the declared indexes: the aborted sweep's, the superseded sweeps'", async () => {
    const deletes = (commands: CommandStartedEvent[]) =>
      commands
        .filter((event) => event.commandName === 'delete' && event.command.delete === 'events')
        .map((event) => (event.command.deletes as Document[])[0]!.q as Record<string, unknown>);
    const writer = await mongo.store().beginSweep('gamma', 'gamma-2');
    await writer.add(entries('gamma', [fixtureEvent('gamma', 'g1', { markets: 3 })]));
    const [aborted, ...moreAborted] = deletes(await mongo.commandsOf(() => writer.abort()));
    expect(moreAborted).toEqual([]);
    // `sweep` leads the Router's listing index.
    expect(indexUse(indexKey('router_open_by_volume'), aborted!, {}).bounds).toEqual(['sweep']);
    const next = await mongo.store().beginSweep('gamma', 'gamma-3');
    await next.add(entries('gamma', sampleCatalog().gamma!));
    const [superseded, ...moreSuperseded] = deletes(await mongo.commandsOf(() => next.commit(sweepRecord('gamma', 'gamma-3', sampleCatalog().gamma!))));
    expect(moreSuperseded).toEqual([]);
    expect(Object.keys(superseded!)).toEqual(['venue', 'sweep']);
    expect(indexUse(indexKey('by_venue_sweep'), superseded!, {}).bounds).toEqual(['venue']);
    used.add('by_venue_sweep');
  });

  test('every index in eventIndexes serves a shape tested here: none is unused', () => {
    expect([...used].sort()).toEqual(eventIndexes.map((index) => index.name).sort());
  });
});

describe('the README table of event query shapes', () => {
  const rows = readmeIndexes();
  const eventIndexNames: readonly string[] = eventIndexes.map((index) => index.name);

  test('names every event index in its index column', () => {
    const named = new Set(rows.flatMap((row) => row.indexes));
    for (const name of eventIndexNames) expect(named.has(name), name).toBe(true);
  });

  test('names no index on events that eventIndexes does not declare', () => {
    const onEvents = rows.flatMap((row) => row.indexes).filter((name) => !name.startsWith('markets_'));
    expect(onEvents.filter((name) => !eventIndexNames.includes(name))).toEqual([]);
  });

  test('names the index of every event shape tested here', () => {
    const named = new Set(rows.flatMap((row) => row.indexes));
    for (const [title, shape] of shapes) expect(named.has(shape.index), title).toBe(true);
  });
});
