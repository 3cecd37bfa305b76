import type { Event } from '@predgate/core';
import { marketKeysOf } from '../document.js';
import type { CatalogEntry, MarketKeys } from '../document.js';
import { arrayMemberRanges } from './json-ranges.js';

/**
 * An entry as the embedded store keeps it: the indexed fields, and both
 * views as UTF-8 JSON bytes. Pages are sent as those bytes, neither built as
 * strings nor encoded per request; the bytes live outside the JavaScript heap,
 * so a large catalog adds little to what the garbage collector walks; and the
 * objects are parsed only when someone asks for them.
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
  readonly marketIds: string[];
  readonly outcomeIds: string[];
  readonly marketSlugs: string[];
  readonly sourceJson: Buffer;
  readonly routerJson: Buffer;
  /** Where each market sits in `sourceJson`, found on the first market query that reaches this event. */
  private marketRanges: Uint32Array | undefined;

  constructor(entry: CatalogEntry, sourceJson = Buffer.from(JSON.stringify(entry.source))) {
    this.id = entry.id;
    this.venue = entry.venue;
    this.venueEventId = entry.venueEventId;
    this.slug = entry.slug;
    this.search = entry.search;
    this.category = entry.category;
    this.venueCategory = entry.venueCategory;
    this.tags = entry.tags;
    this.closed = entry.closed;
    this.closesAt = entry.closesAt;
    this.volume24h = entry.volume24h;
    this.marketIds = entry.marketIds;
    this.outcomeIds = entry.outcomeIds;
    this.marketSlugs = entry.marketSlugs;
    this.sourceJson = sourceJson;
    this.routerJson = Buffer.from(JSON.stringify(entry.router));
  }

  /** One market's JSON, a view into the event's bytes: neither copied nor parsed. */
  marketJson(index: number): Buffer {
    this.marketRanges ??= arrayMemberRanges(this.sourceJson, 'markets') ?? new Uint32Array(0);
    const start = this.marketRanges[index * 2];
    if (start === undefined) throw new Error(`event ${this.id} has no market ${index}`);
    return this.sourceJson.subarray(start, this.marketRanges[index * 2 + 1]);
  }

  get source(): Event {
    return JSON.parse(this.sourceJson.toString('utf8')) as Event;
  }

  /** Derived again when asked: the partition keeps these keys in its market rows already. */
  get marketKeys(): MarketKeys[] {
    return marketKeysOf(this.source);
  }

  get router(): Event {
    return JSON.parse(this.routerJson.toString('utf8')) as Event;
  }
}
