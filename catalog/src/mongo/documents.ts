import type { Event } from '@predgate/core';
import type { CatalogEntry, MarketKeys } from '../document.js';
import type { EventQuery, MarketQuery } from '../store.js';

/**
 * The `events` collection's documents and the queries over them, as pure
 * functions: what the driver sends can be read, tested and evaluated (with
 * mingo) without a server. A document is the Router's event, nested markets
 * and outcomes included, plus the fields the indexes need and the venue's own
 * event (`source`) for the pass-through.
 */
export interface EventDocument extends Event {
  _id: string;
  /** The sweep that wrote it; only committed sweeps are visible. */
  sweep: string;
  venue: string;
  venueEventId: string;
  search: string;
  titleKey: string;
  venueCategory: string | null;
  tagKeys: string[];
  closed: boolean;
  closesAt: number | null;
  marketIds: string[];
  outcomeIds: string[];
  marketSlugs: string[];
  /** One row per market, in the order of `source.markets`, with what market queries filter and sort on. */
  marketKeys: MarketKeys[];
  source: Event;
}

/**
 * The indexes, each with the query it serves. Every read starts with the
 * visible sweeps (`sweep: {$in: [...]}`, one per venue), so `sweep` leads.
 */
export const eventIndexes = [
  // GET /v0/events: open events by 24h volume, the UUID breaking ties; also counts them.
  { key: { sweep: 1, closed: 1, volume24h: -1, id: 1 }, name: 'router_open_by_volume' },
  // GET /v0/events?category=...
  { key: { sweep: 1, closed: 1, category: 1, volume24h: -1, id: 1 }, name: 'router_category_by_volume' },
  // GET /v0/events?sourceExchange=... (a venue's sweep is one value of `sweep`)
  { key: { sweep: 1, venue: 1, closed: 1, volume24h: -1, id: 1 }, name: 'router_venue_by_volume' },
  // Pass-through lists from the catalog, in a live venue list's order.
  { key: { sweep: 1, venue: 1, volume24h: -1, venueEventId: 1 }, name: 'venue_by_volume' },
  // GET /v0/events/{id}
  { key: { id: 1, sweep: 1 }, name: 'by_uuid', unique: true },
  // fetchEvent by venue event id; one document per event per sweep.
  { key: { venue: 1, venueEventId: 1, sweep: 1 }, name: 'by_venue_event_id', unique: true },
  // fetchEvent by slug
  { key: { venue: 1, slug: 1 }, name: 'by_slug' },
  // fetchMarket(s) by market id, outcome id or market slug
  { key: { marketIds: 1 }, name: 'by_market_id' },
  { key: { outcomeIds: 1 }, name: 'by_outcome_id' },
  { key: { marketSlugs: 1 }, name: 'by_market_slug' },
  // Cleaning out superseded sweeps.
  { key: { venue: 1, sweep: 1 }, name: 'by_venue_sweep' },
] as const;

export function eventDocument(entry: CatalogEntry, sweep: string): EventDocument {
  return {
    _id: `${entry.id}:${sweep}`,
    ...entry.router,
    sweep,
    venue: entry.venue,
    venueEventId: entry.venueEventId,
    search: entry.search,
    titleKey: entry.source.title.toLowerCase(),
    venueCategory: entry.venueCategory,
    tagKeys: entry.tags,
    closed: entry.closed,
    closesAt: entry.closesAt,
    marketIds: entry.marketIds,
    outcomeIds: entry.outcomeIds,
    marketSlugs: entry.marketSlugs,
    marketKeys: entry.marketKeys,
    source: entry.source,
  };
}

const routerFields = [
  'id',
  'title',
  'description',
  'slug',
  'markets',
  'volume24h',
  'volume',
  'url',
  'image',
  'category',
  'tags',
  'sourceMetadata',
  'sourceExchange',
] as const;

export function entryFromDocument(document: EventDocument): CatalogEntry {
  const router = Object.fromEntries(routerFields.filter((field) => document[field] !== undefined).map((field) => [field, document[field]])) as unknown as Event;
  return {
    id: document.id,
    venue: document.venue,
    venueEventId: document.venueEventId,
    slug: document.slug,
    search: document.search,
    category: document.category as CatalogEntry['category'],
    venueCategory: document.venueCategory,
    tags: document.tagKeys,
    closed: document.closed,
    closesAt: document.closesAt,
    volume24h: document.volume24h,
    marketIds: document.marketIds,
    outcomeIds: document.outcomeIds,
    marketSlugs: document.marketSlugs,
    marketKeys: document.marketKeys,
    source: document.source,
    router,
  };
}

/** The filter of an event query over the visible sweeps. */
export function eventFilter(query: EventQuery, visibleSweeps: readonly string[]): Record<string, unknown> {
  const filter: Record<string, unknown> = { sweep: { $in: [...visibleSweeps] } };
  const and: Array<Record<string, unknown>> = [];
  if (query.venue !== undefined) filter.venue = query.venue;
  const expired = query.expiredBy === undefined ? undefined : { closesAt: { $ne: null, $lte: query.expiredBy } };
  if (query.status === 'active') {
    filter.closed = false;
    if (expired) and.push({ $or: [{ closesAt: null }, { closesAt: { $gt: query.expiredBy } }] });
  } else if (query.status === 'closed') {
    if (expired) and.push({ $or: [{ closed: true }, expired] });
    else filter.closed = true;
  }
  if (query.category !== undefined) filter.category = query.category;
  if (query.venueCategory !== undefined) filter.venueCategory = query.venueCategory;
  if (query.tags !== undefined) filter.tagKeys = { $in: query.tags };
  if (query.search !== undefined) filter.search = { $regex: escapeRegex(query.search) };
  if (query.title !== undefined) filter.titleKey = { $regex: escapeRegex(query.title) };
  if (query.id !== undefined) filter.id = query.id;
  if (query.venueEventId !== undefined) filter.venueEventId = query.venueEventId;
  if (query.slug !== undefined) filter.slug = query.slug;
  if (query.marketId !== undefined) filter.marketIds = query.marketId;
  if (query.outcomeId !== undefined) filter.outcomeIds = query.outcomeId;
  if (and.length > 0) filter.$and = and;
  return filter;
}

export function eventSort(order: EventQuery['order']): Record<string, 1 | -1> {
  return order === 'router' ? { volume24h: -1, id: 1 } : { volume24h: -1, venueEventId: 1 };
}

/**
 * A market query as an aggregation: one row per market of the events that can
 * hold a match, filtered and sorted on its keys, paged, counted in the same
 * pass. Rows carry only their keys; the page's events are read afterwards.
 */
export function marketPipeline(query: MarketQuery, visibleSweeps: readonly string[]): Array<Record<string, unknown>> {
  const events: Record<string, unknown> = { sweep: { $in: [...visibleSweeps] } };
  if (query.venue !== undefined) events.venue = query.venue;
  if (query.eventUuid !== undefined) events.id = query.eventUuid;
  if (query.venueEventId !== undefined) events.venueEventId = query.venueEventId;
  if (query.marketId !== undefined) events.marketIds = query.marketId;
  if (query.outcomeId !== undefined) events.outcomeIds = query.outcomeId;
  if (query.slug !== undefined) events.marketSlugs = query.slug;

  const rows: Record<string, unknown> = {};
  if (query.status !== 'all') rows['row.trading'] = query.status === 'active';
  if (query.title !== undefined) rows['row.title'] = { $regex: escapeRegex(query.title) };
  if (query.category !== undefined) rows['row.normalizedCategory'] = query.category;
  if (query.venueCategory !== undefined) rows['row.category'] = query.venueCategory;
  if (query.tags !== undefined) rows['row.tags'] = { $in: query.tags };
  if (query.marketId !== undefined) rows['row.marketId'] = query.marketId;
  if (query.outcomeId !== undefined) rows['row.outcomeIds'] = query.outcomeId;
  if (query.slug !== undefined) rows['row.slug'] = query.slug;

  return [
    { $match: events },
    { $project: { venue: 1, row: '$marketKeys' } },
    { $unwind: { path: '$row', includeArrayIndex: 'index' } },
    { $match: rows },
    { $sort: { 'row.volume24h': -1, venue: 1, 'row.marketId': 1 } },
    {
      $facet: {
        items: [{ $skip: query.offset }, { $limit: query.limit }, { $project: { _id: 1, index: 1 } }],
        ...(query.withTotal ? { total: [{ $count: 'count' }] } : {}),
      },
    },
  ];
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
