import { withoutBinaryRefs } from '@predgate/core';
import type { JsonOut } from './json-out.js';
import type { Event, Market } from '@predgate/core';
import { parse as uuidParse, v5 as uuidV5 } from 'uuid';
import { normalizeCategory } from './categories.js';
import type { NormalizedCategory } from './categories.js';

/** Namespace of the catalog's event UUIDs; changing it would change every id clients hold. */
export const catalogNamespace = '6f1b0b3e-6a1c-5d0e-9c55-2c0de4a7e9b1';
// Given as bytes, the namespace and name skip uuid's per-call parse and its slow string-to-bytes loop (a sweep makes an id per event).
const namespaceBytes = uuidParse(catalogNamespace);

/** The Router's stable id of a venue event: the same across restarts, re-ingests and stores. */
export function catalogEventId(venue: string, venueEventId: string): string {
  return uuidV5(Buffer.from(`${venue}:${venueEventId}`), namespaceBytes);
}

/**
 * One event in the catalog: the venue's event exactly as its adapter returned
 * it (what the pass-through serves), the Router's view of it, and the fields
 * the stores index.
 */
export interface CatalogEntry {
  /** The Router's UUID. */
  id: string;
  venue: string;
  venueEventId: string;
  slug: string;
  /** Lower-cased title and slug, for the Router's substring search. */
  search: string;
  category: NormalizedCategory;
  /** Lower-cased venue category and tags, for the pass-through's filters. */
  venueCategory: string | null;
  tags: string[];
  /** The venue says no market of the event trades any more. */
  closed: boolean;
  /** Unix ms when the event's last market resolves, if the venue says. */
  closesAt: number | null;
  volume24h: number;
  marketIds: string[];
  outcomeIds: string[];
  marketSlugs: string[];
  /** One per market, in the order of `source.markets`: what market queries filter and sort on. */
  marketKeys: MarketKeys[];
  source: Event;
  router: Event;
  /** Both views as UTF-8 JSON, where a store keeps them as bytes: sent as they are, never serialised again. */
  readonly sourceJson?: Buffer;
  readonly routerJson?: Buffer;
  /** Both views written straight into an answer, where a store can do that without a buffer of their own. */
  writeSourceJson?(out: JsonOut): void;
  writeRouterJson?(out: JsonOut): void;
}

export interface MarketKeys {
  marketId: string;
  slug: string | null;
  /** Lower-cased. */
  title: string;
  trading: boolean;
  /** The venue's category (the market's own, else its event's), lower-cased. */
  category: string | null;
  normalizedCategory: NormalizedCategory;
  /** Lower-cased. */
  tags: string[];
  outcomeIds: string[];
  volume24h: number;
}

export function catalogEntry(venue: string, event: Event): CatalogEntry {
  const id = catalogEventId(venue, event.id);
  const resolutionTimes = event.markets.map((market) => Date.parse(market.resolutionDate ?? '')).filter((time) => !Number.isNaN(time));
  const marketKeys = marketKeysOf(event);
  return {
    id,
    venue,
    venueEventId: event.id,
    slug: event.slug,
    search: `${event.title}\n${event.slug}`.toLowerCase(),
    category: normalizeCategory(event.category),
    venueCategory: event.category?.toLowerCase() ?? null,
    tags: (event.tags ?? []).map((tag) => tag.toLowerCase()),
    closed: event.markets.length > 0 && event.markets.every((market) => !isTrading(market)),
    closesAt: resolutionTimes.length > 0 ? Math.max(...resolutionTimes) : null,
    volume24h: event.volume24h,
    marketKeys,
    source: event,
    // Derived when read: the embedded store never reads them (it keeps the keys and splices the view from bytes).
    get marketIds() {
      return marketIdsOf(marketKeys);
    },
    get outcomeIds() {
      return outcomeIdsOf(marketKeys);
    },
    get marketSlugs() {
      return marketSlugsOf(marketKeys);
    },
    get router() {
      return routerView(venue, id, event);
    },
  };
}

export function marketKeysOf(event: Event): MarketKeys[] {
  return event.markets.map((market) => {
    const category = market.category ?? event.category;
    return {
      marketId: market.marketId,
      slug: market.slug ?? null,
      title: market.title.toLowerCase(),
      trading: isTrading(market),
      category: category?.toLowerCase() ?? null,
      normalizedCategory: normalizeCategory(category),
      tags: (market.tags ?? event.tags ?? []).map((tag) => tag.toLowerCase()),
      outcomeIds: market.outcomes.map((outcome) => outcome.outcomeId),
      volume24h: market.volume24h,
    };
  });
}

export function marketIdsOf(markets: readonly MarketKeys[]): string[] {
  return markets.map((keys) => keys.marketId);
}

export function outcomeIdsOf(markets: readonly MarketKeys[]): string[] {
  return markets.flatMap((keys) => keys.outcomeIds);
}

export function marketSlugsOf(markets: readonly MarketKeys[]): string[] {
  return markets.flatMap((keys) => (keys.slug === null ? [] : [keys.slug]));
}

/** A market trades unless its venue says otherwise. */
export function isTrading(market: Market): boolean {
  return market.status === undefined || market.status === 'active';
}

/**
 * The Router's view: the catalog UUID as id (and as every market's eventId),
 * `sourceExchange` on the event and its markets, the normalised category, no
 * convenience references. The venue's own id and category move to
 * `sourceMetadata`.
 */
function routerView(venue: string, id: string, event: Event): Event {
  return {
    id,
    title: event.title,
    description: event.description,
    slug: event.slug,
    markets: event.markets.map((market) => ({ ...withoutBinaryRefs(market), eventId: id, sourceExchange: venue })),
    volume24h: event.volume24h,
    ...(event.volume !== undefined ? { volume: event.volume } : {}),
    url: event.url,
    ...(event.image !== undefined ? { image: event.image } : {}),
    category: normalizeCategory(event.category),
    ...(event.tags !== undefined ? { tags: event.tags } : {}),
    sourceMetadata: {
      ...event.sourceMetadata,
      venueEventId: event.id,
      ...(event.category ? { venueCategory: event.category } : {}),
    },
    sourceExchange: venue,
  };
}
