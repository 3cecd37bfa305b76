import type { Market } from '@predgate/core';
import type { CatalogEntry } from './document.js';
import type { JsonOut } from './json-out.js';

/** The last complete sweep of one venue. */
export interface SweepRecord {
  venue: string;
  sweepId: string;
  startedAt: number;
  finishedAt: number;
  events: number;
  markets: number;
  outcomes: number;
  /** Markets still trading; absent on records written before it was counted. */
  openMarkets?: number;
  /** The replica that swept, when gateways share the catalog. */
  sweptBy?: string;
}

/** `active`: still trading; `closed`: not; `all`: both. */
export type CatalogStatus = 'active' | 'closed' | 'all';

/**
 * Events, in one of two orders: `router` (24h volume descending, then the
 * catalog UUID: the Router's stable order) or `venue` (24h volume descending,
 * then the venue's event id: the order of a live venue list).
 */
export interface EventQuery {
  venue?: string;
  /** Lower-cased substring of the title or the slug (the Router's `q`). */
  search?: string;
  /** Lower-cased substring of the title (the pass-through's `query`). */
  title?: string;
  status: CatalogStatus;
  /** When set, events whose close time is at or before it count as closed, whatever the venue says. */
  expiredBy?: number;
  /** Normalised category, exactly. */
  category?: string;
  /** The venue's own category, lower-cased. */
  venueCategory?: string;
  /** Lower-cased; any of them. */
  tags?: string[];
  id?: string;
  venueEventId?: string;
  slug?: string;
  marketId?: string;
  outcomeId?: string;
  order: 'router' | 'venue';
  limit: number;
  offset: number;
  /** Count every match too (`Page.total`); only the Router's pages show it, and on MongoDB it costs a second query. */
  withTotal?: boolean;
}

/** Markets, 24h volume descending, then venue and market id. */
export interface MarketQuery {
  venue?: string;
  /** Lower-cased substring of the market title. */
  title?: string;
  /** Of the market itself. */
  status: CatalogStatus;
  category?: string;
  venueCategory?: string;
  tags?: string[];
  /** Catalog UUID of the parent event. */
  eventUuid?: string;
  venueEventId?: string;
  marketId?: string;
  outcomeId?: string;
  slug?: string;
  limit: number;
  offset: number;
  /** Count every match too (`Page.total`). */
  withTotal?: boolean;
}

export interface Page<T> {
  items: T[];
  /** Matches in all, beyond this page too: present when the query asked `withTotal`. */
  total?: number;
}

/** A market found in the catalog, with the ids of the event it belongs to. */
export interface MarketHit {
  venue: string;
  /** Catalog UUID of the event. */
  eventId: string;
  venueEventId: string;
  /** The venue's market, exactly as its adapter returned it. */
  market: Market;
  /** The same market as JSON bytes, where the store keeps them: sent as they are. */
  json?: Buffer;
  /** The same bytes written straight into an answer. */
  writeJson?(out: JsonOut): void;
}

/** Receives one venue's complete sweep; nothing of it is visible before `commit`. */
export interface SweepWriter {
  add(entries: readonly CatalogEntry[]): Promise<void>;
  /** Makes the sweep the venue's catalog at once; events it did not see are gone. */
  commit(record: SweepRecord): Promise<void>;
  /** Drops what was written; the previous sweep stays served. */
  abort(): Promise<void>;
}

/** The port both catalog stores implement; one contract suite checks them. */
export interface CatalogStore {
  open(): Promise<void>;
  close(): Promise<void>;
  beginSweep(venue: string, sweepId: string): Promise<SweepWriter>;
  /** The last complete sweep of every venue the catalog holds. */
  sweeps(): Promise<SweepRecord[]>;
  events(query: EventQuery): Promise<Page<CatalogEntry>>;
  markets(query: MarketQuery): Promise<Page<MarketHit>>;
  eventById(id: string): Promise<CatalogEntry | undefined>;
}
