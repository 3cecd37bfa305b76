import type { Event, Market } from '@predgate/core';
import PQueue from 'p-queue';
import { catalogEntry } from '../document.js';
import type { CatalogStore, EventQuery, MarketHit, MarketQuery, Page, SweepRecord, SweepWriter } from '../store.js';
import { VenuePartition, marketOrder, routerOrder, venueOrder } from './partition.js';
import type { Matches } from './matches.js';
import { ByteSlabs } from './byte-slabs.js';
import { decodeKeys, encodeKeys } from './entry-keys.js';
import { Interner } from './interner.js';
import { NumberBlocks } from './number-blocks.js';
import { borrowEventBytes, inFileOrder, readPage } from './file-bytes.js';
import { CatalogFiles } from './persistence.js';
import { eventJson } from './event-json.js';
import type { EventJson } from './event-json.js';
import { PieceFile } from './piece-file.js';
import { PieceFiller } from './piece-filler.js';
import { EntryViews, StoredEntry } from './stored-entry.js';
import type { MarketRow } from './stored-entry.js';
import type { JsonOut } from '../json-out.js';

export interface EmbeddedStoreOptions {
  /** Folder for the journal and snapshot; without one the catalog lives in memory only. */
  dir?: string;
  /** A commit writes a snapshot (instead of appending to the journal) when its sweep would take the journal past this size, */
  snapshotAfterBytes?: number;
  /** or past this many sweeps, so a restart never replays much. */
  snapshotAfterSweeps?: number;
}

/**
 * The default catalog store: each venue's committed sweep held in memory as
 * an immutable partition, swapped in whole when the next sweep commits (so a
 * sweep is visible all at once or not at all), and kept on disk as a journal
 * plus snapshot so a restart serves the same catalog at once.
 */
export class EmbeddedCatalogStore implements CatalogStore {
  private partitions = new Map<string, VenuePartition>();
  private readonly files: CatalogFiles | undefined;
  private readonly snapshotAfterBytes: number;
  private readonly snapshotAfterSweeps: number;
  private sweepsSinceSnapshot = 0;
  private readonly views: EntryViews;
  /** Each venue's lookup maps still being built after its partition was published. */
  private readonly indexing = new Map<string, Promise<void>>();
  /** Router gzip pieces are made in the background once a venue is published and indexed (see piece-filler.ts). */
  private readonly pieces = new PieceFiller();
  private readonly filling = new Map<string, Promise<void>>();
  /**
   * Commits and snapshots take turns: venues sweep concurrently, and a
   * journal whose sweeps interleave, or a snapshot taken halfway through
   * another venue's append, would lose a sweep on restart.
   */
  private readonly writes = new PQueue({ concurrency: 1 });

  constructor(options: EmbeddedStoreOptions = {}) {
    this.files = options.dir ? new CatalogFiles(options.dir) : undefined;
    this.views = new EntryViews(undefined, new PieceFile(options.dir));
    this.snapshotAfterBytes = options.snapshotAfterBytes ?? 64 * 1024 * 1024;
    this.snapshotAfterSweeps = options.snapshotAfterSweeps ?? 200;
  }

  async open(): Promise<void> {
    if (!this.files) return;
    // Repeated categories and tag lists are shared within a venue, as within a sweep.
    const interners = new Map<string, Interner>();
    const layouts = new NumberBlocks((length) => new Int32Array(length));
    const state = await this.files.load((venue, venueEventId, { bytes, keys, keysText, parsed, refs = '', router, routerPieces }) => {
      let shared = interners.get(venue);
      if (!shared) interners.set(venue, (shared = new Interner()));
      // Snapshot events come with their keys; events from the journal (at most its size limit) were parsed as
      // stored, which is enough: the keys do not depend on the binary references left out.
      const entryKeys =
        keys === undefined
          ? catalogEntry(venue, (parsed ?? JSON.parse(bytes.read().toString('utf8'))) as Event)
          : decodeKeys(venue, venueEventId, keys, layouts, keysText);
      return new StoredEntry(entryKeys, { bytes, refs, router, routerPieces }, this.views, shared);
    });
    for (const [venue, sweep] of state.sweeps) {
      const entries = [...(state.events.get(venue)?.values() ?? [])];
      state.events.delete(venue);
      const partition = await VenuePartition.build(sweep, entries);
      this.partitions.set(venue, partition);
      this.indexing.set(venue, partition.warm());
      this.fillPieces(venue, partition);
    }
  }

  /** Makes the partition's gzip pieces after its lookup maps. A piece not made (the store closed first) is made by the first answer that needs it. */
  private fillPieces(venue: string, partition: VenuePartition): void {
    const indexing = this.indexing.get(venue);
    this.filling.set(
      venue,
      Promise.resolve(indexing)
        .then(() => this.pieces.fill(venue, partition.entries))
        // Pieces of events this sweep replaced are dropped from the piece file once it holds too many.
        .then(() => this.views.pieces.compact(this.servedPieces()))
        .catch(() => undefined),
    );
  }

  private *servedPieces() {
    for (const partition of this.partitions.values()) for (const entry of partition.entries) yield* entry.keptPieces();
  }

  /** Settles once every published partition's gzip pieces are made. */
  async piecesMade(): Promise<void> {
    await Promise.all(this.filling.values());
  }

  /** Settles once every partition's lookup maps are built: the catalog then answers every query at its full speed. */
  async indexed(): Promise<void> {
    await Promise.all(this.indexing.values());
  }

  async close(): Promise<void> {
    this.pieces.stop();
    this.views.pieces.close();
    await this.writes.add(async () => {
      if (this.files && (await this.files.journalBytes()) > 0) await this.snapshot();
      this.files?.close();
    });
  }

  async beginSweep(venue: string, _sweepId: string): Promise<SweepWriter> {
    // Each page is put in its stored form as it arrives: the sweep then holds compact entries and bytes, not
    // every parsed event of the venue until it commits (a heap that size is what ingestion would spend in GC).
    const seen = new Map<string, StoredEntry>();
    const slabs = new ByteSlabs();
    const shared = new Interner();
    /** Entries stored exactly as in the partition served when they were swept, with that partition's entry. */
    const unchanged = new Map<StoredEntry, StoredEntry>();
    const previous = this.partitions.get(venue);
    let finished = false;
    return {
      add: async (entries) => {
        if (finished) throw new Error('this sweep is already finished');
        for (const entry of entries) {
          // Serialised once, here: what requests send later is these bytes, never a view built again.
          const mark = slabs.mark();
          const stored = eventJson(entry.source, { id: entry.id, venue, category: entry.category }, (bytes) => slabs.bytes(bytes));
          const before = previous?.byVenueEventId(entry.venueEventId);
          if (before && sameAsStored(before, entry.category, stored)) {
            // Unchanged since the sweep served: its bytes are used again, and the slab's room goes to the next event,
            // so a sweep that changes little neither grows the sweep's memory nor writes the journal.
            slabs.rollback(mark);
            const kept = new StoredEntry(
              entry,
              {
                bytes: before.bytes,
                refs: before.refs,
                router: before.routerBytes,
                routerPieces: before.routerPieces,
                routerDeflated: before.keptRouterDeflated,
                sourceDeflated: before.keptSourceDeflated,
                marketsDeflated: before.keptMarketsDeflated,
              },
              this.views,
              shared,
            );
            unchanged.set(kept, before);
            seen.set(entry.venueEventId, kept);
            continue;
          }
          seen.set(
            entry.venueEventId,
            new StoredEntry(entry, { bytes: stored.json, refs: stored.refs, router: stored.router, routerPieces: stored.routerPieces }, this.views, shared),
          );
        }
      },
      commit: async (record) => {
        if (finished) throw new Error('this sweep is already finished');
        finished = true;
        const partition = await VenuePartition.build(record, [...seen.values()]);
        await this.writes.add(() => this.publish(venue, partition, unchanged));
      },
      abort: async () => {
        finished = true;
        seen.clear();
      },
    };
  }

  async sweeps(): Promise<SweepRecord[]> {
    return [...this.partitions.values()].map((partition) => partition.sweep);
  }

  async events(query: EventQuery): Promise<Page<StoredEntry>> {
    const order = query.order === 'router' ? routerOrder : venueOrder;
    const found = page(
      this.chosen(query.venue).map((partition) => partition.eventMatches(query)),
      order,
      query,
    );
    // The page is written into its answer next: its events' bytes are read at once where they are neighbours on disk.
    readPage(found.items.flatMap((entry) => [entry.bytes, entry.routerBytes]));
    return found;
  }

  async markets(query: MarketQuery): Promise<Page<MarketHit>> {
    const rows = page(
      this.chosen(query.venue).map((partition) => partition.marketMatches(query)),
      marketOrder,
      query,
    );
    return { items: rows.items.map((row) => new StoredMarketHit(row)), total: rows.total };
  }

  async eventById(id: string): Promise<StoredEntry | undefined> {
    for (const partition of this.partitions.values()) {
      const entry = partition.get(id);
      if (entry) return entry;
    }
    return undefined;
  }

  private chosen(venue: string | undefined): VenuePartition[] {
    if (venue === undefined) return [...this.partitions.values()];
    const partition = this.partitions.get(venue);
    return partition ? [partition] : [];
  }

  /** Makes a built partition durable, then what readers see. */
  private async publish(venue: string, partition: VenuePartition, unchanged: ReadonlyMap<StoredEntry, StoredEntry> = new Map()): Promise<void> {
    this.sweepsSinceSnapshot += 1;
    if (this.files) {
      // The journal records what changed since the sweep before: its partition is the reference.
      const previous = this.partitions.get(venue);
      const changed: StoredEntry[] = [];
      for (const entry of partition.entries) {
        const before = previous?.byVenueEventId(entry.venueEventId);
        // Where `before` is now (a snapshot since may have moved it), not where it was when the sweep saw it.
        if (before && (unchanged.get(entry) === before || sameStoredForm(before, entry))) entry.relocate(before.bytes, before.routerBytes);
        else changed.push(entry);
      }
      const changedBytes = changed.reduce((sum, entry) => sum + entry.bytes.length, 0);
      const due = this.sweepsSinceSnapshot >= this.snapshotAfterSweeps || (await this.files.journalBytes()) + changedBytes > this.snapshotAfterBytes;
      if (due) {
        // A sweep that makes a snapshot due goes straight into it: appended first, its events would be written
        // twice and read back once (a first sweep of a large venue is most of the catalog).
        await this.snapshot(new Map(this.partitions).set(venue, partition));
      } else {
        const next = new Set(partition.entries.map((entry) => entry.venueEventId));
        const written = await this.files.append({
          sweep: partition.sweep,
          upserts: changed.map((entry) => ({
            venue,
            venueEventId: entry.venueEventId,
            json: entry.bytes,
            refs: entry.refs,
            router: entry.routerBytes,
            routerPieces: entry.routerPieces,
          })),
          removals: (previous?.entries ?? []).map((entry) => entry.venueEventId).filter((id) => !next.has(id)),
        });
        // From now on the entries read their bytes from disk, and the sweep's copies in memory go.
        changed.forEach((entry, index) => entry.relocate(written[index]!.json, written[index]!.router));
      }
    }
    // Only now, with the sweep durable, does it become what readers see.
    this.partitions.set(venue, partition);
    this.views.forget(venue);
    this.indexing.set(venue, partition.warm());
    this.fillPieces(venue, partition);
  }

  /** Writes `partitions` (the published ones, or those with a sweep about to be) as the snapshot. */
  private async snapshot(partitions: ReadonlyMap<string, VenuePartition> = this.partitions): Promise<void> {
    this.sweepsSinceSnapshot = 0;
    const published = [...partitions.values()];
    // In the order their bytes are in, which is the order they are read fastest in: the snapshot's order does not matter.
    const entries = inFileOrder(published.flatMap((partition) => partition.entries));
    // Read one at a time as the snapshot is written, not all at once.
    function* events() {
      for (const entry of entries) {
        yield {
          venue: entry.venue,
          venueEventId: entry.venueEventId,
          json: entry.bytes,
          refs: entry.refs,
          router: entry.routerBytes,
          routerPieces: entry.routerPieces,
          keys: encodeKeys(entry),
        };
      }
    }
    const written = await this.files!.snapshot(
      published.map((partition) => partition.sweep),
      events(),
    );
    entries.forEach((entry, index) => entry.relocate(written[index]!.json, written[index]!.router));
  }
}

/**
 * The same event as stored, so the same Router view too: that view's only
 * other input is the normalised category (which a new version may read
 * differently), and an earlier one may never have been made, or kept whole
 * (files of an earlier version).
 */
function sameStoredForm(previous: StoredEntry, next: StoredEntry): boolean {
  return (
    previous.refs === next.refs &&
    previous.category === next.category &&
    previous.bytes.length === next.bytes.length &&
    (previous.routerBytes === undefined) === (next.routerBytes === undefined) &&
    (previous.routerPieces === undefined) === (next.routerPieces === undefined) &&
    previous.json.equals(next.json)
  );
}

/**
 * A market found in the embedded store: its own bytes inside its event's,
 * written into an answer as they are, parsed alone when someone reads it.
 */
class StoredMarketHit implements MarketHit {
  readonly venue: string;
  readonly eventId: string;
  readonly venueEventId: string;
  readonly #row: MarketRow;

  constructor(row: MarketRow) {
    this.#row = row;
    this.venue = row.entry.venue;
    this.eventId = row.entry.id;
    this.venueEventId = row.entry.venueEventId;
  }

  get json(): Buffer {
    return this.#row.entry.marketJson(this.#row.index);
  }

  get market(): Market {
    return JSON.parse(this.json.toString('utf8')) as Market;
  }

  writeJson(out: JsonOut): void {
    this.#row.entry.writeMarketJson(this.#row.index, out);
  }
}

/** A sweep's new stored form is the one the served entry has: same bytes, references and category, and a view made the same way. */
function sameAsStored(before: StoredEntry, category: string, stored: EventJson): boolean {
  return (
    before.refs === stored.refs &&
    before.category === category &&
    before.routerPieces !== undefined &&
    before.routerBytes?.length === stored.router.length &&
    before.bytes.length === stored.json.length &&
    borrowEventBytes(before.bytes).equals(stored.json)
  );
}

/** Merges each partition's matches (each already in `order`) and cuts out the requested page. */
function page<T>(matches: Array<Matches<T>>, order: (a: T, b: T) => number, query: { offset: number; limit: number }): Page<T> {
  const total = matches.reduce((sum, match) => sum + match.total, 0);
  const end = query.offset + query.limit;
  if (matches.length <= 1) return { items: matches[0]?.slice(query.offset, end) ?? [], total };
  const iterators = matches.map((match) => match.items()[Symbol.iterator]());
  const heads = iterators.map((iterator) => iterator.next());
  const items: T[] = [];
  for (let position = 0; position < end; position += 1) {
    let best = -1;
    heads.forEach((head, index) => {
      if (!head.done && (best === -1 || order(head.value, (heads[best] as IteratorYieldResult<T>).value) < 0)) best = index;
    });
    if (best === -1) break;
    if (position >= query.offset) items.push((heads[best] as IteratorYieldResult<T>).value);
    heads[best] = iterators[best]!.next();
  }
  return { items, total };
}
