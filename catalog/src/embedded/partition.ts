import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EventQuery, MarketQuery, SweepRecord } from '../store.js';
import { KeyTable } from './key-table.js';
import { LazyIndex } from './lazy-index.js';
import { outcomeSeparator } from './entry-keys.js';
import type { MarketRow, StoredEntry } from './stored-entry.js';
import { TextSearch } from './text-search.js';
import { listed, openList, openMatches } from './matches.js';
import type { Matches, OpenList } from './matches.js';

export const routerOrder = (a: StoredEntry, b: StoredEntry): number => b.volume24h - a.volume24h || compare(a.id, b.id);
export const venueOrder = (a: StoredEntry, b: StoredEntry): number => b.volume24h - a.volume24h || compare(a.venueEventId, b.venueEventId);
export const marketOrder = (a: MarketRow, b: MarketRow): number =>
  b.volume24h - a.volume24h || compare(a.entry.venue, b.entry.venue) || compare(a.marketId, b.marketId);

/**
 * One venue's committed sweep, with everything its queries need built once:
 * both orders, the open events per category with sorted close times (so the
 * Router's default page and its total cost no scan), a trigram index for
 * substring search, and tables for every lookup key. The trigram index, the
 * lookup tables and the market rows in market order are built after the
 * partition is published (see `warm`), or by the first query that needs
 * them; until the trigram index is done a search scans. Immutable once built.
 */
export class VenuePartition {
  private readonly byId: KeyTable<StoredEntry>;
  private readonly byVenueEventIdTable: KeyTable<StoredEntry>;
  private readonly bySlug: KeyTable<StoredEntry>;
  /** Made by the first market query or by `warm`, whichever comes first: see `rows`. */
  private marketRows: MarketRows | undefined;
  /** Venue order, split by status: the pass-through's unfiltered lists are a slice of one. */
  private readonly openEntries: StoredEntry[] = [];
  private readonly closedEntries: StoredEntry[] = [];
  private readonly open = new Map<string | undefined, OpenList>();
  private readonly search: TextSearch;

  private constructor(
    readonly sweep: SweepRecord,
    /** Venue order. */
    readonly entries: readonly StoredEntry[],
    /** Router order. */
    private readonly rank: readonly StoredEntry[],
  ) {
    for (const entry of entries) (entry.closed ? this.closedEntries : this.openEntries).push(entry);
    this.byId = new KeyTable(entries, (entry) => entry.id);
    this.byVenueEventIdTable = new KeyTable(entries, (entry) => entry.venueEventId);
    this.bySlug = new KeyTable(entries, (entry) => entry.slug);
    const openRank = rank.filter((entry) => !entry.closed);
    this.search = new TextSearch(rank);
    this.open.set(undefined, openList(openRank));
    const byCategory = new Map<string, StoredEntry[]>();
    for (const entry of openRank) push(byCategory, entry.category, entry);
    for (const [category, list] of byCategory) this.open.set(category, openList(list));
  }

  static async build(sweep: SweepRecord, entries: StoredEntry[]): Promise<VenuePartition> {
    return new VenuePartition(sweep, byVolume(entries, venueOrder), byVolume(entries, routerOrder));
  }

  /**
   * The market rows in market order and their lookups, made when first
   * needed rather than with the partition: sorting half a million markets is
   * a good part of what a start from disk would otherwise spend before it
   * serves, and events are what most requests ask for.
   */
  private get rows(): MarketRows {
    return (this.marketRows ??= new MarketRows(this.entries));
  }

  /** Every market row, in market order. */
  get markets(): readonly MarketRow[] {
    return this.rows.all;
  }

  /**
   * Builds what was left for later, between requests: first the trigram index
   * (a search meanwhile scans the partition, some tens of milliseconds for a
   * large venue, rather than wait for it), then the lookup tables (a lookup
   * meanwhile builds the one it needs at once).
   */
  async warm(): Promise<void> {
    await this.search.build();
    for (const index of [this.byId, this.byVenueEventIdTable, this.bySlug]) await index.warm();
    await nextTurn();
    const rows = this.rows;
    for (const index of [rows.byMarketId, rows.byOutcomeId, rows.bySlug, rows.byNormalizedCategory, rows.byVenueCategory]) await index.warm();
  }

  get(id: string): StoredEntry | undefined {
    return this.byId.last(id);
  }

  byVenueEventId(venueEventId: string): StoredEntry | undefined {
    return this.byVenueEventIdTable.last(venueEventId);
  }

  eventMatches(query: EventQuery): Matches<StoredEntry> {
    const order = query.order === 'router' ? routerOrder : venueOrder;
    const keyed = this.keyedCandidates(query);
    if (keyed) return listed(keyed.filter((entry) => eventMatches(entry, query)).sort(order));

    if (query.search !== undefined) {
      // Every event found holds the text already: the rest of the query is what is left to check.
      const rest: EventQuery = { ...query, search: undefined };
      const statusOnly = rest.title === undefined && rest.category === undefined && rest.venueCategory === undefined && rest.tags === undefined;
      const searched = statusOnly && query.order === 'router' ? this.search.matches(query.search, query.status, query.expiredBy) : undefined;
      if (searched) return searched;
      const holding = this.search.entries(query.search);
      if (holding) {
        const found = holding.filter((entry) => eventMatches(entry, rest));
        return listed(query.order === 'router' ? found : found.sort(order));
      }
    }

    // Filters no presorted list answers: without them, the page is a slice of one.
    const unlisted = query.search !== undefined || query.title !== undefined || query.venueCategory !== undefined || query.tags !== undefined;
    if (!unlisted && query.order === 'router' && query.status === 'active') return this.openMatches(query.category, query.expiredBy);
    if (!unlisted && query.order === 'venue' && query.category === undefined && query.expiredBy === undefined) {
      return listed(query.status === 'all' ? this.entries : query.status === 'active' ? this.openEntries : this.closedEntries);
    }

    const pool = query.order === 'router' ? this.rank : this.entries;
    return listed(pool.filter((entry) => eventMatches(entry, query)));
  }

  /**
   * Costs what the page costs where an index answers: lookups by key or by
   * parent event, and listings by status and category (a slice of a
   * presorted list). Title and tag filters walk the rows of the chosen status
   * and category: a trigram index over every market title would cost more
   * memory than the rare market text search is worth.
   */
  marketMatches(query: MarketQuery): Matches<MarketRow> {
    const keyed = this.keyedRows(query);
    if (keyed) return listed(keyed.filter((row) => marketMatches(row, query)));
    const pool = this.marketList(query);
    const filtered = query.title !== undefined || query.tags !== undefined || (query.category !== undefined && query.venueCategory !== undefined);
    return listed(filtered ? pool.filter((row) => marketMatches(row, query)) : pool);
  }

  /** The presorted market rows of the query's status, within its category (normalised, else the venue's) if it has one. */
  private marketList(query: MarketQuery): readonly MarketRow[] {
    const rows = this.rows;
    if (query.category !== undefined) return rows.byNormalizedCategory.get(query.category)?.[query.status] ?? [];
    if (query.venueCategory !== undefined) return rows.byVenueCategory.get(query.venueCategory)?.[query.status] ?? [];
    if (query.status === 'all') return rows.all;
    return query.status === 'active' ? rows.trading : rows.other;
  }

  /** Market rows found through a lookup key or their event, whatever else the query asks. */
  private keyedRows(query: MarketQuery): readonly MarketRow[] | undefined {
    if (query.marketId !== undefined) return optional(this.rows.byMarketId.last(query.marketId));
    if (query.outcomeId !== undefined) return optional(this.rows.byOutcomeId.last(query.outcomeId));
    if (query.slug !== undefined) return this.rows.bySlug.all(query.slug);
    const entry =
      query.eventUuid !== undefined ? this.get(query.eventUuid) : query.venueEventId !== undefined ? this.byVenueEventId(query.venueEventId) : undefined;
    if (query.eventUuid !== undefined || query.venueEventId !== undefined) return entry?.rows ?? [];
    return undefined;
  }

  /** Events found through a lookup key, whatever else the query asks. */
  private keyedCandidates(query: EventQuery): StoredEntry[] | undefined {
    if (query.id !== undefined) return optional(this.get(query.id));
    if (query.venueEventId !== undefined) return optional(this.byVenueEventId(query.venueEventId));
    if (query.marketId !== undefined) return optional(this.rows.byMarketId.last(query.marketId)?.entry);
    if (query.outcomeId !== undefined) return optional(this.rows.byOutcomeId.last(query.outcomeId)?.entry);
    if (query.slug !== undefined) return this.bySlug.all(query.slug);
    return undefined;
  }

  /** The Router's default query: open events (of a category), the expired ones skipped, counted without a scan. */
  private openMatches(category: string | undefined, expiredBy: number | undefined): Matches<StoredEntry> {
    const list = this.open.get(category);
    return list ? openMatches(list, expiredBy) : listed([]);
  }
}

/** A partition's market rows in market order, split by whether they trade (a status-only query is a slice of one), and their lookups. */
class MarketRows {
  readonly all: readonly MarketRow[];
  readonly trading: MarketRow[] = [];
  readonly other: MarketRow[] = [];
  readonly byMarketId: KeyTable<MarketRow>;
  readonly byOutcomeId: KeyTable<MarketRow>;
  readonly bySlug: KeyTable<MarketRow>;
  /** Market order within a category, per status: by the normalised category, and by the venue's. */
  readonly byNormalizedCategory: LazyIndex<MarketRow, string, CategoryRows>;
  readonly byVenueCategory: LazyIndex<MarketRow, string, CategoryRows>;

  constructor(entries: readonly StoredEntry[]) {
    const all = byVolume(
      entries.flatMap((entry) => entry.rows),
      marketOrder,
    );
    this.all = all;
    for (const row of all) (row.trading ? this.trading : this.other).push(row);
    this.byMarketId = new KeyTable(all, (row) => row.marketId);
    this.byOutcomeId = new KeyTable(all, (row) => row.packedOutcomeIds, outcomeSeparator);
    this.bySlug = new KeyTable(all, (row) => row.slug);
    this.byNormalizedCategory = new LazyIndex(all, (map, row) => addCategoryRow(map, row.normalizedCategory, row));
    this.byVenueCategory = new LazyIndex(all, (map, row) => {
      if (row.category !== null) addCategoryRow(map, row.category, row);
    });
  }
}

export function eventMatches(entry: StoredEntry, query: EventQuery): boolean {
  const closedNow = entry.closed || (query.expiredBy !== undefined && entry.closesAt !== null && entry.closesAt <= query.expiredBy);
  return (
    (query.status === 'all' || (query.status === 'active') !== closedNow) &&
    (query.category === undefined || entry.category === query.category) &&
    (query.venueCategory === undefined || entry.venueCategory === query.venueCategory) &&
    (query.tags === undefined || query.tags.some((tag) => entry.tags.includes(tag))) &&
    (query.search === undefined || entry.search.includes(query.search)) &&
    (query.title === undefined || titleOf(entry).includes(query.title)) &&
    (query.id === undefined || entry.id === query.id) &&
    (query.venueEventId === undefined || entry.venueEventId === query.venueEventId) &&
    (query.slug === undefined || entry.slug === query.slug) &&
    (query.marketId === undefined || entry.marketIds.includes(query.marketId)) &&
    (query.outcomeId === undefined || entry.outcomeIds.includes(query.outcomeId))
  );
}

function marketMatches(row: MarketRow, query: MarketQuery): boolean {
  return (
    (query.status === 'all' || (query.status === 'active') === row.trading) &&
    (query.title === undefined || row.title.includes(query.title)) &&
    (query.category === undefined || row.normalizedCategory === query.category) &&
    (query.venueCategory === undefined || row.category === query.venueCategory) &&
    (query.tags === undefined || query.tags.some((tag) => row.tags.includes(tag))) &&
    (query.eventUuid === undefined || row.entry.id === query.eventUuid) &&
    (query.venueEventId === undefined || row.entry.venueEventId === query.venueEventId) &&
    (query.marketId === undefined || row.marketId === query.marketId) &&
    (query.outcomeId === undefined || row.outcomeIds.includes(query.outcomeId)) &&
    (query.slug === undefined || row.slug === query.slug)
  );
}

/** The event title is the first line of the search text. */
function titleOf(entry: StoredEntry): string {
  return entry.search.slice(0, entry.search.indexOf('\n'));
}

/**
 * The items in `order`, which sorts by 24h volume descending first. The
 * items are put in volume order by a radix sort of the volumes' bits, and
 * `order` runs only among items of equal volume: a comparator on every pair
 * of a large venue's markets would be most of what building its partition
 * costs. Input already by volume (the venue order, which the Router's order
 * differs from only among ties) skips the radix sort.
 */
export function byVolume<T extends { volume24h: number }>(items: readonly T[], order: (a: T, b: T) => number): T[] {
  const sorted = items.every((item, index) => index === 0 || items[index - 1]!.volume24h >= item.volume24h) ? [...items] : placedByVolume(items);
  if (!sorted) return [...items].sort(order);
  for (let start = 0; start < sorted.length;) {
    let end = start + 1;
    while (end < sorted.length && sorted[end]!.volume24h === sorted[start]!.volume24h) end += 1;
    if (end - start > 1)
      sorted
        .slice(start, end)
        .sort(order)
        .forEach((item, offset) => (sorted[start + offset] = item));
    start = end;
  }
  return sorted;
}

/** Which 32-bit half of a float64 holds its sign and exponent on this machine. */
const highWord = new Uint32Array(Float64Array.of(1).buffer)[1] === 0x3ff00000 ? 1 : 0;

/**
 * The items by volume, descending, ties in input order; undefined when a
 * volume is NaN (which has no place). A least-significant-digit radix sort on
 * 16-bit digits of each volume's bits, made to order as the numbers do and
 * inverted for descending: four linear passes (fewer when a digit is the
 * same everywhere) instead of a binary search per item, which at half a
 * million markets cost several times more.
 */
function placedByVolume<T extends { volume24h: number }>(items: readonly T[]): T[] | undefined {
  const count = items.length;
  const volumes = new Float64Array(count);
  for (let index = 0; index < count; index += 1) {
    const volume = items[index]!.volume24h;
    if (Number.isNaN(volume)) return undefined;
    // -0 and 0 are one volume: with the same bits they keep their input order, as a comparator sort keeps them.
    volumes[index] = volume + 0;
  }
  const words = new Uint32Array(volumes.buffer);
  const lowKeys = new Uint32Array(count);
  const highKeys = new Uint32Array(count);
  for (let index = 0; index < count; index += 1) {
    let high = words[2 * index + highWord]!;
    let low = words[2 * index + 1 - highWord]!;
    // IEEE 754 bits order as the numbers do once negatives have every bit flipped and positives their sign bit.
    if (high & 0x80000000) {
      high = ~high;
      low = ~low;
    } else high ^= 0x80000000;
    highKeys[index] = ~high >>> 0;
    lowKeys[index] = ~low >>> 0;
  }
  let positions = new Uint32Array(count).map((_, index) => index);
  let next = new Uint32Array(count);
  const starts = new Uint32Array(0x10001);
  for (const [keys, shift] of [
    [lowKeys, 0],
    [lowKeys, 16],
    [highKeys, 0],
    [highKeys, 16],
  ] as const) {
    starts.fill(0);
    for (let index = 0; index < count; index += 1) starts[((keys[index]! >>> shift) & 0xffff) + 1]! += 1;
    if (count === 0 || starts[((keys[0]! >>> shift) & 0xffff) + 1] === count) continue;
    for (let digit = 1; digit <= 0x10000; digit += 1) starts[digit]! += starts[digit - 1]!;
    for (const position of positions) next[starts[(keys[position]! >>> shift) & 0xffff]!++] = position;
    [positions, next] = [next, positions];
  }
  return Array.from(positions, (position) => items[position]!);
}

/** A category's market rows in market order, per status. */
type CategoryRows = Record<MarketQuery['status'], MarketRow[]>;

/**
 * Adds a row (rows come in market order) to its category's lists: a map by
 * category of lists per status, rather than a key text made per row and
 * status, which at half a million markets was most of what the map cost.
 */
function addCategoryRow(map: Map<string, CategoryRows>, category: string, row: MarketRow): void {
  let rows = map.get(category);
  if (!rows) map.set(category, (rows = { active: [], closed: [], all: [] }));
  (row.trading ? rows.active : rows.closed).push(row);
  rows.all.push(row);
}

function optional<T>(item: T | undefined): T[] {
  return item === undefined ? [] : [item];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
