import type { CatalogEntry, MarketKeys } from '../document.js';
import { FileRange, borrowEventBytes } from './file-bytes.js';
import type { Interner } from './interner.js';
import { closeBracket, comma, openBracket, quote, stringEnd } from './json-bytes.js';
import type { NumberBlocks } from './number-blocks.js';

/** An event's indexed fields, its markets' apart. */
export type EventKeys = Omit<CatalogEntry, 'source' | 'router' | 'sourceJson' | 'routerJson' | 'marketIds' | 'outcomeIds' | 'marketSlugs' | 'marketKeys'>;

/**
 * An event's markets' keys packed into five values, rather than an object,
 * four strings and two lists per market: a start from disk parses them from
 * the snapshot as they are (see `encodeKeys`), and a venue's half a million
 * markets are then not some three million strings and lists for the garbage
 * collector to copy and walk. A market's row reads its strings from `text`
 * when asked (see stored-entry.ts).
 */
export interface PackedMarkets {
  /**
   * Each market's id, slug and title, then its outcome ids joined by
   * `outcomeSeparator`, one market after another; or, as a start from disk
   * leaves it, where the snapshot holds it as a JSON string, quotes included
   * (read through `marketText` when rows are first made). It is most of an
   * event's keys, and as strings made while a start reads the snapshot it
   * would be most of what the garbage collector copies then (rows are made
   * after the catalog serves, see partition.ts).
   */
  text: string | FileRange;
  /** Per market, `layoutWidth` numbers (the `Layout` positions), then the length of each of its outcome ids. */
  layout: ArrayLike<number>;
  volumes: number[];
  /** The categories (the venue's and the normalised) the layout refers to by position; shared within a venue. */
  texts: Array<string | null>;
  /** The tag lists the layout refers to by position; shared within a venue. */
  tagLists: string[][];
}

/** The packed text of `packed` (event `id`'s), read from the snapshot the first time and kept; an error where it does not fit its layout. */
export function marketText(packed: PackedMarkets, id: string): string {
  if (typeof packed.text === 'string') return packed.text;
  const text: unknown = JSON.parse(borrowEventBytes(packed.text).toString('utf8'));
  if (typeof text !== 'string' || text.length !== packedTextLength(packed.layout, packed.volumes.length)) throw notFitting(id);
  return (packed.text = text);
}

/** Where each number of a market's layout is, from its first. */
export const Layout = {
  idLength: 0,
  /** -1 where the market has no slug. */
  slugLength: 1,
  titleLength: 2,
  /** 1 or 0. */
  trading: 3,
  category: 4,
  normalizedCategory: 5,
  tags: 6,
  outcomeCount: 7,
} as const;
export const layoutWidth = 8;
export const outcomeSeparator = '\u0000';

/** The text length of a market's outcome ids whose layout starts at `at`: their lengths and the separators between them. */
export function outcomesLength(layout: ArrayLike<number>, at: number): number {
  const count = layout[at + Layout.outcomeCount]!;
  let length = Math.max(count - 1, 0);
  for (let index = 0; index < count; index += 1) length += layout[at + layoutWidth + index]!;
  return length;
}

/** The text length of the market whose layout starts at `at`. */
export function marketTextLength(layout: ArrayLike<number>, at: number): number {
  return layout[at + Layout.idLength]! + Math.max(layout[at + Layout.slugLength]!, 0) + layout[at + Layout.titleLength]! + outcomesLength(layout, at);
}

/** Packs markets' keys (a sweep's, or a journal's or older snapshot's event) with their repeated values shared through `shared`. */
export function packMarkets(markets: readonly MarketKeys[], shared: Interner): PackedMarkets {
  const parts: string[] = [];
  const layout: number[] = [];
  const texts: Array<string | null> = [];
  const tagLists: string[][] = [];
  const textRef = (value: string | null) => refTo(texts, shared.text(value));
  for (const market of markets) {
    parts.push(market.marketId, market.slug ?? '', market.title, market.outcomeIds.join(outcomeSeparator));
    layout.push(
      market.marketId.length,
      market.slug === null ? -1 : market.slug.length,
      market.title.length,
      market.trading ? 1 : 0,
      textRef(market.category),
      textRef(market.normalizedCategory),
      refTo(tagLists, shared.list(market.tags)),
      market.outcomeIds.length,
      ...market.outcomeIds.map((id) => id.length),
    );
  }
  return { text: parts.join(''), layout, volumes: markets.map((market) => market.volume24h), texts: shared.whole(texts), tagLists: shared.whole(tagLists) };
}

/** The position of `value` in `list` (values are few per event: a scan is cheapest), added if it is not there. */
function refTo<T>(list: T[], value: T): number {
  const at = list.indexOf(value);
  return at === -1 ? list.push(value) - 1 : at;
}

type KeysTuple = [
  id: string,
  slug: string,
  search: string,
  category: EventKeys['category'],
  venueCategory: string | null,
  tags: string[],
  closed: boolean,
  closesAt: number | null,
  volume24h: number,
  marketText: string | typeof leftOut,
  marketLayout: number[],
  marketVolumes: number[],
  marketTexts: Array<string | null>,
  marketTagLists: string[][],
];

/** The tuple files of the version before wrote: a positional array per market. */
type FirstKeysTuple = [
  id: string,
  slug: string,
  search: string,
  category: EventKeys['category'],
  venueCategory: string | null,
  tags: string[],
  closed: boolean,
  closesAt: number | null,
  volume24h: number,
  markets: FirstMarketTuple[],
];
type FirstMarketTuple = [
  marketId: string,
  slug: string | null,
  title: string,
  trading: boolean,
  category: string | null,
  normalizedCategory: MarketKeys['normalizedCategory'],
  tags: string[],
  outcomeIds: string[],
  volume24h: number,
];

/**
 * An entry's indexed fields as compact JSON, written beside its event in the
 * snapshot so a restart builds the entry without parsing the event (parsing
 * is most of what a start from disk would otherwise cost). A positional
 * array, its markets packed: a fraction of the size of the event, and quick
 * to parse into few values.
 */
export function encodeKeys(keys: EventKeys & { packedMarkets: PackedMarkets }): string {
  const { layout, volumes, texts, tagLists } = keys.packedMarkets;
  const text = marketText(keys.packedMarkets, keys.id);
  const tuple: KeysTuple = [
    keys.id,
    keys.slug,
    keys.search,
    keys.category,
    keys.venueCategory,
    keys.tags,
    keys.closed,
    keys.closesAt,
    keys.volume24h,
    text,
    Array.from(layout),
    volumes,
    texts,
    tagLists,
  ];
  return JSON.stringify(tuple);
}

/** What a snapshot line's head is parsed with in place of the packed text `packedTextIn` found (see `decodeKeys`). */
export const leftOut = 0;

const keysMember = Buffer.from(',"keys":[');
/** The values `encodeKeys` writes before the packed text. */
const valuesBeforeText = 9;

/**
 * Where the packed text is, as its JSON string, in a snapshot line whose head
 * (up to `headEnd`) ends with keys as `encodeKeys` writes them: found by
 * stepping over the values before it, so a start parses the head without it
 * (see `PackedMarkets`). Undefined where the keys are not of that form (files of
 * the version before, or no keys); they are then parsed whole as before.
 * Inside a JSON string every quote is escaped, so the first `,"keys":[` is
 * the member's own.
 */
export function packedTextIn(line: Buffer, headEnd: number): [start: number, end: number] | undefined {
  const keys = line.indexOf(keysMember);
  if (keys < 0 || keys > headEnd) return undefined;
  let at = keys + keysMember.length;
  for (let value = 0; value < valuesBeforeText; value += 1) {
    at = valueEnd(line, at, headEnd);
    if (line[at] !== comma) return undefined;
    at += 1;
  }
  if (line[at] !== quote) return undefined;
  const end = stringEnd(line, at, headEnd);
  return end !== -1 && line[end] === comma ? [at, end] : undefined;
}

/** Where the JSON value starting at `at` ends: a string, an array of scalars and strings (a tag list), or a scalar. */
function valueEnd(line: Buffer, at: number, end: number): number {
  if (line[at] === quote) return pastString(line, at, end);
  if (line[at] === openBracket) {
    at += 1;
    while (at < end && line[at] !== closeBracket) at = line[at] === quote ? pastString(line, at, end) : at + 1;
    return at + 1;
  }
  while (at < end && line[at] !== comma && line[at] !== closeBracket) at += 1;
  return at;
}

/** Past the JSON string whose opening quote is at `at`, or `end` where it does not close before it. */
function pastString(line: Buffer, at: number, end: number): number {
  const close = stringEnd(line, at, end);
  return close === -1 ? end : close;
}

/**
 * The keys `encodeKeys` wrote (or the version before, its markets as
 * objects), as parsed with the rest of their snapshot line. Packed markets
 * are checked to fit their text: a row reads its strings by these lengths.
 */
export function decodeKeys(
  venue: string,
  venueEventId: string,
  encoded: unknown,
  /** Where packed layouts are kept (see number-blocks.ts). */
  layouts: NumberBlocks<Int32Array>,
  /** Where the packed text is, where the keys were parsed without it (see `packedTextIn`). */
  storedText?: FileRange,
): EventKeys & ({ packedMarkets: PackedMarkets } | { marketKeys: MarketKeys[] }) {
  const [id, slug, search, category, venueCategory, tags, closed, closesAt, volume24h, parsedText, layout, volumes, texts, tagLists] = encoded as KeysTuple;
  const text = storedText && parsedText === leftOut ? storedText : parsedText;
  if (typeof text === 'string' || text instanceof FileRange) {
    if (!packedFits({ text, layout, volumes, texts, tagLists })) throw notFitting(id);
    const packedMarkets = { text, layout: layouts.copy(layout), volumes, texts, tagLists };
    return { id, venue, venueEventId, slug, search, category, venueCategory, tags, closed, closesAt, volume24h, packedMarkets };
  }
  const markets = (encoded as FirstKeysTuple)[9];
  const marketKeys = markets.map(([marketId, marketSlug, title, trading, marketCategory, normalizedCategory, marketTags, outcomeIds, marketVolume]) => ({
    marketId,
    slug: marketSlug,
    title,
    trading,
    category: marketCategory,
    normalizedCategory,
    tags: marketTags,
    outcomeIds,
    volume24h: marketVolume,
  }));
  return { id, venue, venueEventId, slug, search, category, venueCategory, tags, closed, closesAt, volume24h, marketKeys };
}

function notFitting(id: string): Error {
  return new Error(`catalog snapshot keys of event ${id} do not fit their markets' text`);
}

/**
 * Every market's layout is whole and its references in range, and the
 * lengths add up to the text (a text left in the snapshot is checked when
 * it is read, by `marketText`): a row never reads outside its own.
 */
function packedFits({
  text,
  layout,
  volumes,
  texts,
  tagLists,
}: {
  text: string | FileRange;
  layout: number[];
  volumes: number[];
  texts: unknown[];
  tagLists: unknown[];
}): boolean {
  if (!Array.isArray(layout) || !Array.isArray(volumes) || !Array.isArray(texts) || !Array.isArray(tagLists)) return false;
  let at = 0;
  for (let market = 0; market < volumes.length; market += 1) {
    if (at + layoutWidth > layout.length) return false;
    const count = layout[at + Layout.outcomeCount]!;
    if (!(count >= 0) || at + layoutWidth + count > layout.length) return false;
    for (let field = 0; field < layoutWidth + count; field += 1) {
      const value = layout[at + field]!;
      // A slug's length is -1 where there is none; every other number is a length, a flag or a position.
      if (value !== (value | 0) || value < (field === Layout.slugLength ? -1 : 0)) return false;
    }
    if (layout[at + Layout.category]! >= texts.length || layout[at + Layout.normalizedCategory]! >= texts.length) return false;
    if (layout[at + Layout.tags]! >= tagLists.length) return false;
    at += layoutWidth + count;
  }
  return at === layout.length && (text instanceof FileRange || packedTextLength(layout, volumes.length) === text.length);
}

/** The text length a layout `packedFits` adds up to. */
function packedTextLength(layout: ArrayLike<number>, markets: number): number {
  let textLength = 0;
  for (let market = 0, at = 0; market < markets; market += 1) {
    textLength += marketTextLength(layout, at);
    at += layoutWidth + layout[at + Layout.outcomeCount]!;
  }
  return textLength;
}
