import type { Event, Market } from '@predgate/core';
import { Binary } from 'mongodb';
import { marketKeysOf } from '../document.js';
import { eventJson, routerViewBytes } from '../embedded/event-json.js';
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
  source: Event;
  /**
   * The Router's view as UTF-8 JSON, made when the event was swept, with the
   * embedded store's serialiser (the same bytes): a Router page sends it as
   * it is instead of serialising the fields above again. Absent on documents
   * written before it was kept.
   */
  routerJson?: Binary;
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
  // fetchEvent by slug, of one venue or (the Router's) across venues: slug first, so both are bounded.
  { key: { slug: 1, venue: 1 }, name: 'by_slug_then_venue' },
  // fetchEvents by market id or outcome id
  { key: { marketIds: 1 }, name: 'by_market_id' },
  { key: { outcomeIds: 1 }, name: 'by_outcome_id' },
  // Cleaning out superseded sweeps.
  { key: { venue: 1, sweep: 1 }, name: 'by_venue_sweep' },
] as const;

/**
 * Names earlier versions gave indexes on `events`, dropped at open: `by_slug`
 * led with `venue`, so a slug across venues could not use it (its successor
 * needs a new name, since MongoDB refuses a new key under an existing name);
 * `by_market_slug` served market queries before they moved to `markets`.
 */
export const retiredEventIndexes = ['by_slug', 'by_market_slug'] as const;

export function eventDocument(entry: CatalogEntry, sweep: string): EventDocument {
  const stored = eventJson(entry.source, { id: entry.id, venue: entry.venue, category: entry.category });
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
    source: entry.source,
    routerJson: new Binary(routerViewBytes(stored.json, stored.router, stored.routerPieces)),
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
    // Market pages read the markets collection; an event's keys are derived only if someone asks.
    get marketKeys() {
      return marketKeysOf(document.source);
    },
    source: document.source,
    router,
    ...(document.routerJson ? { routerJson: bytesOf(document.routerJson) } : {}),
  };
}

/** A BSON binary's bytes as a Buffer over the same memory. */
function bytesOf(binary: Binary): Buffer {
  const bytes = binary.value();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
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
  } else if (query.status === 'closed' && !expired) {
    filter.closed = true;
  } else {
    // Both values rather than no condition, so `closed` still pins the Router's listing indexes past `sweep`
    // and they yield the order; an open event past its close time counts as closed, tested on each event.
    filter.closed = { $in: [true, false] };
    if (query.status === 'closed') and.push({ $or: [{ closed: true }, expired] });
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
 * The `markets` collection: one document per market per sweep, written and
 * committed with its event, so a market page is one `find` over documents that
 * hold both what the query filters and sorts on and the venue's market itself.
 */
export interface MarketDocument extends MarketKeys {
  _id: string;
  /** The sweep that wrote it; visible with its sweep's events, deleted with them. */
  sweep: string;
  venue: string;
  /** The catalog UUID of the event. */
  eventUuid: string;
  venueEventId: string;
  /** Index in the event's `markets`. */
  position: number;
  /** The venue's market, exactly as its adapter returned it. */
  market: Market;
}

/**
 * The indexes, each with the query it serves; every query sorts
 * `volume24h:-1, venue:1, marketId:1`. A filter pins `sweep` to the visible
 * sweeps and `trading` to one or both values (`$in`), so each listing index
 * is read as a few ordered ranges merged, never sorted in memory. A field
 * pinned by the filter drops out of the sort, which is why an index may skip it.
 */
export const marketIndexes = [
  // Markets by 24h volume, of any status: Router fetchMarkets.
  { key: { sweep: 1, trading: 1, volume24h: -1, venue: 1, marketId: 1 }, name: 'markets_by_volume' },
  // One venue's markets: catalog-served fetchMarkets, Router fetchMarkets({sourceExchange}), the archive's active markets.
  { key: { sweep: 1, venue: 1, trading: 1, volume24h: -1, marketId: 1 }, name: 'markets_venue_by_volume' },
  // Router fetchMarkets({category}) in the normalised categories.
  { key: { sweep: 1, normalizedCategory: 1, trading: 1, volume24h: -1, venue: 1, marketId: 1 }, name: 'markets_category_by_volume' },
  // An event's markets by catalog UUID (Router fetchMarkets({eventId})); also a sweep's repeated events, cleared before rewriting.
  { key: { eventUuid: 1, sweep: 1, volume24h: -1, venue: 1, marketId: 1 }, name: 'markets_by_event' },
  // An event's markets by the venue's event id (catalog-served fetchMarkets({eventId})).
  { key: { venue: 1, venueEventId: 1, sweep: 1, volume24h: -1, marketId: 1 }, name: 'markets_by_venue_event_id' },
  // fetchMarket(s) by market id, outcome id or market slug.
  { key: { marketId: 1, sweep: 1, volume24h: -1, venue: 1 }, name: 'markets_by_market_id' },
  { key: { outcomeIds: 1, sweep: 1, volume24h: -1, venue: 1, marketId: 1 }, name: 'markets_by_outcome_id' },
  { key: { slug: 1, sweep: 1, volume24h: -1, venue: 1, marketId: 1 }, name: 'markets_by_slug' },
  // Cleaning out superseded sweeps.
  { key: { venue: 1, sweep: 1 }, name: 'markets_by_venue_sweep' },
] as const;

export function marketDocuments(entry: CatalogEntry, sweep: string): MarketDocument[] {
  return entry.marketKeys.map((keys, position) => ({
    _id: `${entry.id}:${position}:${sweep}`,
    sweep,
    venue: entry.venue,
    eventUuid: entry.id,
    venueEventId: entry.venueEventId,
    position,
    ...keys,
    market: entry.source.markets[position]!,
  }));
}

/**
 * The filter of a market query over the visible sweeps. Title and tags are
 * checked on the documents the index range yields: the title is a `$regex`
 * scan within the listing's prefix, tags an `$in` over a second array field.
 */
export function marketFilter(query: MarketQuery, visibleSweeps: readonly string[]): Record<string, unknown> {
  const filter: Record<string, unknown> = { sweep: { $in: [...visibleSweeps] } };
  if (query.venue !== undefined) filter.venue = query.venue;
  // Both values rather than no condition, so `trading` still pins the listing indexes past `sweep`.
  filter.trading = query.status === 'all' ? { $in: [true, false] } : query.status === 'active';
  if (query.category !== undefined) filter.normalizedCategory = query.category;
  if (query.venueCategory !== undefined) filter.category = query.venueCategory;
  if (query.tags !== undefined) filter.tags = { $in: query.tags };
  if (query.title !== undefined) filter.title = { $regex: escapeRegex(query.title) };
  if (query.eventUuid !== undefined) filter.eventUuid = query.eventUuid;
  if (query.venueEventId !== undefined) filter.venueEventId = query.venueEventId;
  if (query.marketId !== undefined) filter.marketId = query.marketId;
  if (query.outcomeId !== undefined) filter.outcomeIds = query.outcomeId;
  if (query.slug !== undefined) filter.slug = query.slug;
  return filter;
}

/** The contract's market order. */
export const marketSort = { volume24h: -1, venue: 1, marketId: 1 } as const;

/** A hit carries only these: the page never needs the keys back. */
export const marketProjection = { _id: 0, venue: 1, eventUuid: 1, venueEventId: 1, market: 1 } as const;

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
