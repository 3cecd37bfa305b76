import type { Event } from '@predgate/core';
import { LRUCache } from 'lru-cache';
import { marketIdsOf, marketSlugsOf, outcomeIdsOf } from '../document.js';
import type { CatalogEntry, MarketKeys } from '../document.js';
import type { JsonOut } from '../json-out.js';
import { eventRefPlaces, marketWithBinaryRefs, withBinaryRefsJson, writeMarketWithBinaryRefs, writeWithRefPlaces } from './binary-refs.js';
import type { RefPlaces } from './binary-refs.js';
import type { Interner } from './interner.js';
import { Layout, layoutWidth, marketText, marketTextLength, outcomeSeparator, outcomesLength, packMarkets } from './entry-keys.js';
import type { EventKeys, PackedMarkets } from './entry-keys.js';
import { borrowAdjacentBytes, borrowEventBytes, borrowEventSlice, readEventBytes } from './file-bytes.js';
import type { EventBytes } from './file-bytes.js';
import { routerViewBytes, routerViewLength, writeRouterView } from './event-json.js';
import { arrayMemberRanges } from './json-ranges.js';
import { routerJson } from './router-json.js';
import type { DeflatedPiece } from '../gzip-pieces.js';
import { PieceFile } from './piece-file.js';

/** What an entry is built from: the indexed fields (its markets' as objects, or packed as a snapshot holds them), without the parsed views. */
export type EntryKeys = EventKeys & ({ marketKeys: readonly MarketKeys[] } | { packedMarkets: PackedMarkets });

/**
 * How an event is kept: its JSON without binary references, and where they
 * were (see binary-refs.ts); and the Router's view, made when it was swept:
 * a shell and the pieces of the event's bytes and the shell it is put
 * together from (see event-json.ts), or, in files of the version before, the
 * whole view without pieces. Files written before views were kept have none:
 * the view is then spliced from the event's bytes when asked for.
 */
export interface StoredForm {
  bytes: EventBytes;
  refs: string;
  router?: EventBytes | undefined;
  routerPieces?: Uint32Array | undefined;
  /** The Router view's gzip piece, where an entry with these same bytes already has one (a sweep that left the event unchanged). */
  routerDeflated?: DeflatedPiece | undefined;
  /** The venue's event's gzip piece, kept over from such an entry in the same way. */
  sourceDeflated?: DeflatedPiece | undefined;
  /** Its markets' gzip pieces, by position, kept over in the same way. */
  marketsDeflated?: ReadonlyArray<DeflatedPiece | undefined> | undefined;
}

/**
 * What a store's entries share: views recently sent, by entry (a hot page is
 * spliced once, not per request; bounded by bytes, so the catalog's size
 * does not grow them), and the file their gzip pieces are kept in.
 */
export class EntryViews {
  readonly router: LRUCache<StoredEntry, Buffer>;
  readonly source: LRUCache<StoredEntry, Buffer>;

  constructor(
    maxBytesEach = 32 * 2 ** 20,
    readonly pieces = new PieceFile(),
  ) {
    const sizeCalculation = (bytes: Buffer) => bytes.length + 64;
    this.router = new LRUCache<StoredEntry, Buffer>({
      maxSize: maxBytesEach,
      sizeCalculation,
      // The view is spliced into a buffer of its own: the stored bytes are only read from, so they are borrowed.
      memoMethod: (entry) => routerJson(borrowEventBytes(entry.bytes), entry),
    });
    this.source = new LRUCache<StoredEntry, Buffer>({
      maxSize: maxBytesEach,
      sizeCalculation,
      // With references to put back, the stored bytes are only read from: they are borrowed, and the view is the one new buffer.
      memoMethod: (entry) => (entry.refs === '' ? entry.json : withBinaryRefsJson(borrowEventBytes(entry.bytes), entry.refs)),
    });
  }

  /** Drops a replaced sweep's views: a cached view keeps its entry, and with it the entry's bytes, alive. */
  forget(venue: string): void {
    for (const cache of [this.router, this.source]) {
      for (const entry of [...cache.keys()]) if (entry.venue === venue) cache.delete(entry);
    }
  }
}

/**
 * An entry as the embedded store keeps it: the indexed fields, one row per
 * market, and one stored form, the venue's event as UTF-8 JSON bytes without
 * its binary references. Pages are sent as bytes spliced from it (the venue's
 * exact event, or the Router's view), neither parsed nor serialised again,
 * and not encoded per request; the bytes live outside the JavaScript heap (on
 * disk when the store has a folder, see file-bytes.ts), so a large catalog
 * adds little to what the garbage collector walks; and the objects are parsed
 * only when someone asks for them.
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
  /** The markets' keys, packed (see entry-keys.ts); their rows are made from them when first asked for. */
  readonly packedMarkets: PackedMarkets;
  private marketRows: readonly MarketRow[] | undefined;
  /** Where each market sits in the stored bytes, found on the first market query that reaches this event. */
  private marketRanges: Uint32Array | undefined;

  /** Where the binary references were taken out of the bytes (see binary-refs.ts). */
  readonly refs: string;
  /** Where they go back, found the first time the venue's event is sent: a page sending it again does not scan its bytes again. */
  private refPlaces: RefPlaces | undefined;
  private stored: EventBytes;
  private routerStored: EventBytes | undefined;
  /** How the view is put together from the event's bytes and `routerStored`; undefined when `routerStored` is the whole view. */
  readonly routerPieces: Uint32Array | undefined;
  /**
   * The Router view as a gzip piece, kept for as long as the entry (where it
   * is in the store's piece file, see piece-file.ts): made in the background
   * after the entry is published (see piece-filler.ts), so a gzipped page
   * costs a copy of its pieces. It belongs to this entry's bytes, which
   * never change: an event swept with new data is a new entry.
   */
  private routerPiece: DeflatedPiece | undefined;
  /** The venue's event as a gzip piece, made and kept as the Router's (pass-through `fetchEvent` and `fetchEvents` answers are stitched from it). */
  private sourcePiece: DeflatedPiece | undefined;
  /** Each market as a gzip piece, by position, made and kept in the same way (`fetchMarket` and `fetchMarkets` answers are stitched from them). */
  private marketPieces: Array<DeflatedPiece | undefined> | undefined;

  constructor(
    keys: EntryKeys,
    stored: StoredForm,
    private readonly views: EntryViews,
    shared: Interner,
  ) {
    this.stored = stored.bytes;
    this.routerStored = stored.router;
    this.routerPieces = stored.router === undefined ? undefined : stored.routerPieces;
    this.routerPiece = stored.routerDeflated;
    this.sourcePiece = stored.sourceDeflated;
    this.marketPieces = stored.marketsDeflated && [...stored.marketsDeflated];
    this.refs = shared.text(stored.refs);
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
    this.packedMarkets = 'packedMarkets' in keys ? sharedIn(keys.packedMarkets, shared) : packMarkets(keys.marketKeys, shared);
  }

  /**
   * One row per market, made the first time they are asked for (a
   * partition's market rows and lookups are built after it serves, see
   * partition.ts): a start from disk makes none.
   */
  get rows(): readonly MarketRow[] {
    if (this.marketRows) return this.marketRows;
    const rows: MarketRow[] = [];
    const { layout, volumes } = this.packedMarkets;
    const text = marketText(this.packedMarkets, this.id);
    for (let index = 0, textAt = 0, layoutAt = 0; index < volumes.length; index += 1) {
      rows.push(new MarketRow(this, text, index, textAt, layoutAt));
      textAt += marketTextLength(layout, layoutAt);
      layoutAt += layoutWidth + layout[layoutAt + Layout.outcomeCount]!;
    }
    return (this.marketRows = rows);
  }

  /** The stored bytes: the venue's event without its binary references. */
  get json(): Buffer {
    return readEventBytes(this.stored);
  }

  get bytes(): EventBytes {
    return this.stored;
  }

  /** The Router's view (or its shell, see `routerPieces`) as stored, where it was made at write time. */
  get routerBytes(): EventBytes | undefined {
    return this.routerStored;
  }

  /** Points the entry at the same bytes written to disk, so the copy in memory can go. */
  relocate(bytes: EventBytes, router: EventBytes | undefined): void {
    if (bytes.length !== this.stored.length) throw new Error(`event ${this.id} relocated to ${bytes.length} bytes, not ${this.stored.length}`);
    if (router?.length !== this.routerStored?.length)
      throw new Error(`event ${this.id} relocated its Router view to ${router?.length} bytes, not ${this.routerStored?.length}`);
    this.stored = bytes;
    this.routerStored = router;
  }

  /** One market's JSON, exactly as the venue's event holds it, without parsing the event. */
  marketJson(index: number): Buffer {
    const json = this.json;
    return this.withMarketRefs(json.subarray(...this.marketRange(index, json)), index);
  }

  /** Market `index`'s bytes with its binary references put back. */
  private withMarketRefs(market: Buffer, index: number): Buffer {
    return this.refs === '' ? market : marketWithBinaryRefs(market, this.refs.split(';')[index]);
  }

  /** The same bytes as `marketJson`, written into an answer: the market is read into a scratch buffer, not one of its own. */
  writeMarketJson(index: number, out: JsonOut): void {
    const at = out.length;
    writeMarketWithBinaryRefs(this.borrowMarket(index), this.refs === '' ? undefined : this.refs.split(';')[index], out);
    out.view(at, () => this.keepMarketPiece(index));
  }

  /** Market `index`'s stored bytes, borrowed: once where it sits is known, only they are read (a page of markets takes one from each event). */
  private borrowMarket(index: number): Buffer {
    if (!this.marketRanges) {
      // Not known yet: the event is read to find it, and the market is taken from that read rather than read again.
      const json = borrowEventBytes(this.stored);
      return json.subarray(...this.marketRange(index, json));
    }
    const [start, end] = this.marketRange(index);
    return borrowEventSlice(this.stored, start, end);
  }

  /** Where market `index` sits in the stored bytes (`json`, or read for it when it is not known yet). */
  private marketRange(index: number, json?: Buffer): [number, number] {
    this.marketRanges ??= arrayMemberRanges(json ?? borrowEventBytes(this.stored), 'markets') ?? new Uint32Array(0);
    const start = this.marketRanges[index * 2];
    if (start === undefined) throw new Error(`event ${this.id} has no market ${index}`);
    return [start, this.marketRanges[index * 2 + 1]!];
  }

  /**
   * The venue's event written into an answer, spliced from the stored bytes
   * as it goes: requests that vary meet a different event each time, so a
   * view kept per entry would be made and dropped, never reused (a repeated
   * request is answered from the gateway's answer cache instead).
   */
  writeSourceJson(out: JsonOut): void {
    const start = out.length;
    if (this.refs === '') out.bytes(this.stored);
    else {
      const json = borrowEventBytes(this.stored);
      this.refPlaces ??= eventRefPlaces(json, this.refs);
      writeWithRefPlaces(json, this.refPlaces, out);
    }
    out.view(start, () => this.keepSourcePiece());
  }

  /** The Router's view written into an answer: put together in place from the event's bytes and its shell where it was made at write time. */
  writeRouterJson(out: JsonOut): void {
    const start = out.length;
    if (this.routerStored === undefined || this.routerPieces === undefined) out.bytes(this.routerStored ?? this.views.router.memo(this));
    else {
      const [event, shell] = borrowAdjacentBytes(this.stored, this.routerStored);
      const length = routerViewLength(this.routerPieces);
      writeRouterView(event, shell, this.routerPieces, out.room(length), out.length);
      out.length += length;
    }
    out.view(start, () => this.keepRouterPiece());
  }

  /** The venue's event, exactly as its adapter returned it. */
  get sourceJson(): Buffer {
    return this.views.source.memo(this);
  }

  /** Makes the Router view's gzip piece now, if it was not made yet: the one place a piece is made. */
  keepRouterPiece(): DeflatedPiece {
    if (this.routerPiece && this.views.pieces.readable(this.routerPiece)) return this.routerPiece;
    return (this.routerPiece = this.views.pieces.keep(this.routerJson));
  }

  /** The kept piece, if one was made yet. */
  get keptRouterDeflated(): DeflatedPiece | undefined {
    return this.routerPiece;
  }

  /** Makes the venue's event's gzip piece now, if it was not made yet: the one place it is made. */
  keepSourcePiece(): DeflatedPiece {
    if (this.sourcePiece && this.views.pieces.readable(this.sourcePiece)) return this.sourcePiece;
    // Deflated from a borrowed read, and not through the cache of views sent: filling it would evict them.
    const bytes = borrowEventBytes(this.stored);
    this.sourcePiece = this.views.pieces.keep(this.refs === '' ? bytes : withBinaryRefsJson(bytes, this.refs));
    return this.sourcePiece;
  }

  /** The kept piece of the venue's event, if one was made yet. */
  get keptSourceDeflated(): DeflatedPiece | undefined {
    return this.sourcePiece;
  }

  /** Makes market `index`'s gzip piece now, if it was not made yet: the one place it is made. */
  keepMarketPiece(index: number): DeflatedPiece {
    return this.keepMarketPieceOf(index, () => this.withMarketRefs(this.borrowMarket(index), index));
  }

  private keepMarketPieceOf(index: number, market: () => Buffer): DeflatedPiece {
    this.marketPieces ??= [];
    const kept = this.marketPieces[index];
    if (kept && this.views.pieces.readable(kept)) return kept;
    return (this.marketPieces[index] = this.views.pieces.keep(market()));
  }

  /** The kept pieces of the event's markets, by position, as far as they were made yet. */
  get keptMarketsDeflated(): ReadonlyArray<DeflatedPiece | undefined> | undefined {
    return this.marketPieces;
  }

  /** Makes every gzip piece the entry keeps (see piece-filler.ts). */
  keepPieces(): void {
    this.keepRouterPiece();
    this.keepSourcePiece();
    if (this.packedMarkets.volumes.length === 0) return;
    // The event is read once for all its markets, and where they sit is found without being kept: most are never asked for alone.
    const json = borrowEventBytes(this.stored);
    const ranges = this.marketRanges ?? arrayMemberRanges(json, 'markets') ?? new Uint32Array(0);
    for (let index = 0; index * 2 < ranges.length; index += 1) {
      this.keepMarketPieceOf(index, () => this.withMarketRefs(json.subarray(ranges[index * 2], ranges[index * 2 + 1]), index));
    }
  }

  /** The pieces made so far: what compacting the piece file keeps (see piece-file.ts). */
  *keptPieces(): Iterable<DeflatedPiece> {
    if (this.routerPiece) yield this.routerPiece;
    if (this.sourcePiece) yield this.sourcePiece;
    for (const piece of this.marketPieces ?? []) if (piece) yield piece;
  }

  /** The Router's view: put together from its stored pieces, or spliced once from the event's (see `StoredForm`). */
  get routerJson(): Buffer {
    if (this.routerStored === undefined) return this.views.router.memo(this);
    if (this.routerPieces === undefined) return readEventBytes(this.routerStored);
    const [event, shell] = borrowAdjacentBytes(this.stored, this.routerStored);
    return routerViewBytes(event, shell, this.routerPieces);
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
    return marketIdsOf(this.rows);
  }

  get outcomeIds(): string[] {
    return outcomeIdsOf(this.rows);
  }

  get marketSlugs(): string[] {
    return marketSlugsOf(this.rows);
  }
}

/**
 * A market of a stored event, with what market queries filter on: its
 * strings are read from the event's packed text when asked for, so a row
 * holds no string of its own. It keeps where each of its strings ends in
 * that text, so reading one (a lookup table hashes every market's id, in
 * market order) goes from the row to the text and nowhere else.
 */
export class MarketRow implements MarketKeys {
  readonly trading: boolean;
  readonly category: string | null;
  readonly normalizedCategory: MarketKeys['normalizedCategory'];
  readonly tags: string[];
  readonly volume24h: number;
  private readonly idEnd: number;
  /** Where the slug ends: `idEnd` where there is none, told apart by `hasSlug`. */
  private readonly slugEnd: number;
  private readonly hasSlug: boolean;
  private readonly titleEnd: number;
  private readonly outcomesEnd: number;
  private readonly outcomeCount: number;

  constructor(
    readonly entry: StoredEntry,
    /** The event's packed text. */
    private readonly text: string,
    /** Position in the event's `markets`. */
    readonly index: number,
    /** Where the market's text starts in its event's packed text, */
    private readonly textAt: number,
    /** and its numbers in the packed layout. */
    private readonly layoutAt: number,
  ) {
    const { layout, volumes, texts, tagLists } = entry.packedMarkets;
    this.trading = layout[layoutAt + Layout.trading] === 1;
    this.category = texts[layout[layoutAt + Layout.category]!] as string | null;
    this.normalizedCategory = texts[layout[layoutAt + Layout.normalizedCategory]!] as MarketKeys['normalizedCategory'];
    this.tags = tagLists[layout[layoutAt + Layout.tags]!]!;
    this.volume24h = volumes[index]!;
    this.idEnd = textAt + layout[layoutAt + Layout.idLength]!;
    this.hasSlug = layout[layoutAt + Layout.slugLength] !== -1;
    this.slugEnd = this.idEnd + Math.max(layout[layoutAt + Layout.slugLength]!, 0);
    this.titleEnd = this.slugEnd + layout[layoutAt + Layout.titleLength]!;
    this.outcomesEnd = this.titleEnd + outcomesLength(layout, layoutAt);
    this.outcomeCount = layout[layoutAt + Layout.outcomeCount]!;
  }

  get marketId(): string {
    return this.text.slice(this.textAt, this.idEnd);
  }

  get slug(): string | null {
    return this.hasSlug ? this.text.slice(this.idEnd, this.slugEnd) : null;
  }

  get title(): string {
    return this.text.slice(this.slugEnd, this.titleEnd);
  }

  get outcomeIds(): string[] {
    const layout = this.entry.packedMarkets.layout;
    const ids: string[] = [];
    let at = this.titleEnd;
    for (let index = 0; index < this.outcomeCount; index += 1) {
      const length = layout[this.layoutAt + layoutWidth + index]!;
      ids.push(this.text.slice(at, at + length));
      at += length + outcomeSeparator.length;
    }
    return ids;
  }

  /**
   * The outcome ids as one text, joined by `outcomeSeparator`, where none holds
   * it (the outcome id table hashes them where they sit in it): as the packed
   * text holds them, so no string is made per id.
   */
  get packedOutcomeIds(): string | readonly string[] {
    if (this.outcomeCount === 0) return [];
    const joined = this.text.slice(this.titleEnd, this.outcomesEnd);
    return separatorsIn(joined) === this.outcomeCount - 1 ? joined : this.outcomeIds;
  }
}

function separatorsIn(text: string): number {
  let count = 0;
  for (let at = text.indexOf(outcomeSeparator); at !== -1; at = text.indexOf(outcomeSeparator, at + 1)) count += 1;
  return count;
}

/** Packed keys as parsed from a snapshot, their repeated values replaced, in place, by the venue's shared copies. */
function sharedIn(packed: PackedMarkets, shared: Interner): PackedMarkets {
  packed.texts = shared.whole(packed.texts.map((text) => shared.text(text)));
  packed.tagLists = shared.whole(packed.tagLists.map((tags) => shared.list(tags)));
  return packed;
}
