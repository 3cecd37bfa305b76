import type { Event } from '@predgate/core';
import { LRUCache } from 'lru-cache';
import type { CatalogEntry, MarketKeys } from '../document.js';
import type { Interner } from './interner.js';
import { arrayMemberRanges } from './json-ranges.js';
import { routerJson } from './router-json.js';

/** What an entry is built from: the indexed fields, without the parsed views. */
export type EntryKeys = Omit<CatalogEntry, 'source' | 'router' | 'sourceJson' | 'routerJson' | 'marketIds' | 'outcomeIds' | 'marketSlugs'>;

/**
 * Router views recently sent, by entry: a hot page is spliced once, not per
 * request. Bounded by bytes, so the catalog's size does not grow it.
 */
export type RouterViews = LRUCache<StoredEntry, Buffer>;

export function routerViews(maxBytes = 64 * 2 ** 20): RouterViews {
  return new LRUCache<StoredEntry, Buffer>({ maxSize: maxBytes, sizeCalculation: (bytes) => bytes.length + 64 });
}

/**
 * An entry as the embedded store keeps it: the indexed fields, one row per
 * market, and one stored form, the venue's event as UTF-8 JSON bytes. Pages
 * are sent as those bytes, neither built as strings nor encoded per request;
 * the Router's view is spliced from them when asked; the bytes live outside
 * the JavaScript heap, so a large catalog adds little to what the garbage
 * collector walks; and the objects are parsed only when someone asks for them.
 */
export class StoredEntry implements CatalogEntry {
  readonly id: string;
  readonly venue: string;
  readonly venueEventId: string;
  readonly slug: string;
  readonly search: string;
  readonly category: CatalogEntry['category'];
  readonly venueCategory: string | null;
  readonly tags: string[];
  readonly closed: boolean;
  readonly closesAt: number | null;
  readonly volume24h: number;
  readonly rows: readonly MarketRow[];
  /** Where each market sits in `sourceJson`, found on the first market query that reaches this event. */
  private marketRanges: Uint32Array | undefined;

  constructor(
    keys: EntryKeys,
    readonly sourceJson: Buffer,
    private readonly views: RouterViews,
    shared: Interner,
  ) {
    this.id = keys.id;
    this.venue = keys.venue;
    this.venueEventId = keys.venueEventId;
    this.slug = keys.slug;
    this.search = keys.search;
    this.category = shared.text(keys.category);
    this.venueCategory = shared.text(keys.venueCategory);
    this.tags = shared.list(keys.tags);
    this.closed = keys.closed;
    this.closesAt = keys.closesAt;
    this.volume24h = keys.volume24h;
    this.rows = keys.marketKeys.map((market, index) => new MarketRow(market, this, index, shared));
  }

  /** One market's JSON, a view into the event's bytes: neither copied nor parsed. */
  marketJson(index: number): Buffer {
    this.marketRanges ??= arrayMemberRanges(this.sourceJson, 'markets') ?? new Uint32Array(0);
    const start = this.marketRanges[index * 2];
    if (start === undefined) throw new Error(`event ${this.id} has no market ${index}`);
    return this.sourceJson.subarray(start, this.marketRanges[index * 2 + 1]);
  }

  get routerJson(): Buffer {
    let bytes = this.views.get(this);
    if (!bytes) {
      bytes = routerJson(this.sourceJson, this);
      this.views.set(this, bytes);
    }
    return bytes;
  }

  get source(): Event {
    return JSON.parse(this.sourceJson.toString('utf8')) as Event;
  }

  get router(): Event {
    return JSON.parse(this.routerJson.toString('utf8')) as Event;
  }

  get marketKeys(): MarketKeys[] {
    return [...this.rows];
  }

  get marketIds(): string[] {
    return this.rows.map((row) => row.marketId);
  }

  get outcomeIds(): string[] {
    return this.rows.flatMap((row) => row.outcomeIds);
  }

  get marketSlugs(): string[] {
    return this.rows.flatMap((row) => (row.slug === null ? [] : [row.slug]));
  }
}

/** A market of a stored event, with what market queries filter on. */
export class MarketRow implements MarketKeys {
  readonly marketId: string;
  readonly slug: string | null;
  readonly title: string;
  readonly trading: boolean;
  readonly category: string | null;
  readonly normalizedCategory: MarketKeys['normalizedCategory'];
  readonly tags: string[];
  readonly outcomeIds: string[];
  readonly volume24h: number;

  constructor(
    keys: MarketKeys,
    readonly entry: StoredEntry,
    /** Position in the event's `markets`. */
    readonly index: number,
    shared: Interner,
  ) {
    this.marketId = keys.marketId;
    this.slug = keys.slug;
    this.title = keys.title;
    this.trading = keys.trading;
    this.category = shared.text(keys.category);
    this.normalizedCategory = shared.text(keys.normalizedCategory);
    this.tags = shared.list(keys.tags);
    this.outcomeIds = keys.outcomeIds;
    this.volume24h = keys.volume24h;
  }
}
