import { withoutBinaryRefs } from '@predgate/core';
import type { Event, Market } from '@predgate/core';
import type { RouterFacts } from './router-json.js';
import { refKeyNames } from './binary-refs.js';
import { backslash, closeBrace, closeBracket, colon, comma, openBrace, openBracket, quote } from './json-bytes.js';

/**
 * What a sweep stores of an event, made in one pass: its stored JSON (see
 * binary-refs.ts) and where its references were, and the Router's view as a
 * shell and the pieces it is put together from (see `routerViewBytes`).
 */
export interface EventJson {
  json: Buffer;
  refs: string;
  /** The Router's view with only the markets that could not be taken from `json` (valid JSON on its own). */
  router: Buffer;
  /** [start, end) byte ranges over `json` followed by `router`: the view is those bytes, in order. */
  routerPieces: Uint32Array;
}

/**
 * The event's stored JSON (the venue's event without the binary references
 * it can be given back) and its Router view (`routerView` in document.ts),
 * byte for byte as serialising each would give, made in one walk over the
 * event that writes its bytes straight into one reused buffer: no copy of
 * the event or its markets, no intermediate string, no second pass to find
 * where things are (see `JsonBytes`). A Router market is the stored one with
 * its `eventId` and `sourceExchange` values swapped for the catalog's, where
 * the market has both members: the view refers to those markets' bytes in
 * the stored JSON instead of copying them, so it costs a few hundred bytes
 * beside them, not a second copy of the event. Any other market is
 * serialised for the view into its shell. `keep` copies the results out of
 * the reused buffer.
 */
export function eventJson(event: Event, facts: RouterFacts, keep: (bytes: Buffer) => Buffer = copied): EventJson {
  const out = JsonBytes.reset();
  const refs: string[] = [];
  /** Per market, where the swap happens (relative to the market's own bytes), or its own Router JSON. */
  const splices: Array<Swap | string> = [];
  /** Each market's [start, end) in the stored JSON. */
  const marketRanges: Array<[number, number]> = [];
  const members = event as unknown as Record<string, unknown>;
  if (!Array.isArray(event.markets)) throw new TypeError('an event to store has no markets list');
  out.byte(openBrace);
  let first = true;
  for (const key in members) {
    if (!hasOwn(members, key)) continue;
    if (key !== 'markets') {
      if (out.member(key, members[key], first)) first = false;
      continue;
    }
    out.key(key, first);
    first = false;
    out.byte(openBracket);
    for (let index = 0; index < event.markets.length; index += 1) {
      const market = event.markets[index]!;
      if (index > 0) out.byte(comma);
      const start = out.length;
      const written = writeMarket(out, market);
      marketRanges.push([start, out.length]);
      refs.push(written.refs);
      splices.push(written.swap ?? JSON.stringify({ ...withoutBinaryRefs(market), eventId: facts.id, sourceExchange: facts.venue }));
    }
    out.byte(closeBracket);
  }
  out.byte(closeBrace);
  const json = keep(out.bytes());
  const { router, routerPieces } = routerForm(
    event,
    facts,
    { idJson: JSON.stringify(facts.id), venueJson: JSON.stringify(facts.venue), json, marketRanges, splices },
    keep,
  );
  return { json, refs: refs.every((pairs) => pairs === '') ? '' : refs.join(';'), router, routerPieces };
}

/** The Router view put together from its pieces, in a buffer of its own. */
export function routerViewBytes(json: Buffer, router: Buffer, pieces: Uint32Array): Buffer {
  const view = Buffer.allocUnsafe(routerViewLength(pieces));
  writeRouterView(json, router, pieces, view, 0);
  return view;
}

/** How long the view the pieces make is. */
export function routerViewLength(pieces: Uint32Array): number {
  let length = 0;
  for (let index = 0; index < pieces.length; index += 2) length += pieces[index + 1]! - pieces[index]!;
  return length;
}

/** Copies the view's pieces, ranges of the stored JSON and then of the shell, into `target` from `at` on. */
export function writeRouterView(json: Buffer, router: Buffer, pieces: Uint32Array, target: Buffer, at: number): void {
  const split = json.length;
  for (let index = 0; index < pieces.length; index += 2) {
    const start = pieces[index]!;
    const end = pieces[index + 1]!;
    at += start < split ? json.copy(target, at, start, end) : router.copy(target, at, start - split, end - split);
  }
}

/** Whether pieces read from files stay within their bytes: each range inside the stored JSON or inside the shell. */
export function piecesFit(pieces: Uint32Array, jsonLength: number, routerLength: number): boolean {
  if (pieces.length % 2 !== 0) return false;
  for (let index = 0; index < pieces.length; index += 2) {
    const start = pieces[index]!;
    const end = pieces[index + 1]!;
    if (end < start || (start < jsonLength ? end > jsonLength : end > jsonLength + routerLength)) return false;
  }
  return true;
}

/** Where a market's `eventId` and `sourceExchange` values sit in its JSON, as UTF-8 byte offsets, in the order they come. */
type Swap = [firstValueStart: number, firstValueEnd: number, firstIsId: boolean, secondValueStart: number, secondValueEnd: number];

interface Made {
  idJson: string;
  venueJson: string;
  json: Buffer;
  marketRanges: Array<[number, number]>;
  splices: Array<Swap | string>;
}

/**
 * The Router's view (see `routerView` in document.ts) as a shell holding
 * the markets that could not be swapped, and the pieces that put the whole
 * view together. The shell starts `{"id":` + the id + `,` and ends with the
 * venue + `}`: the pieces take the swapped values, and the comma between
 * markets, from there.
 */
function routerForm(event: Event, facts: RouterFacts, made: Made, keep: (bytes: Buffer) => Buffer): { router: Buffer; routerPieces: Uint32Array } {
  const out = JsonBytes.reset();
  out.byte(openBrace);
  out.member('id', facts.id, true);
  out.member('title', event.title, false);
  out.member('description', event.description, false);
  out.member('slug', event.slug, false);
  out.key('markets', false);
  out.byte(openBracket);
  const marketsOpen = out.length;
  const own: Array<[number, number]> = [];
  made.splices.forEach((splice, index) => {
    if (typeof splice !== 'string') return;
    if (own.length > 0) out.byte(comma);
    const start = out.length;
    out.text(splice);
    own[index] = [start, out.length];
  });
  const marketsClose = out.length;
  out.byte(closeBracket);
  out.member('volume24h', event.volume24h, false);
  out.member('volume', event.volume, false);
  out.member('url', event.url, false);
  out.member('image', event.image, false);
  out.member('category', facts.category, false);
  out.member('tags', event.tags, false);
  out.key('sourceMetadata', false);
  writeRouterMetadata(out, event);
  out.member('sourceExchange', facts.venue, false);
  out.byte(closeBrace);
  const router = keep(out.bytes());

  const base = made.json.length;
  const idStart = base + '{"id":'.length;
  const idEnd = idStart + Buffer.byteLength(made.idJson);
  const shellComma = [idEnd, idEnd + 1] as const;
  const venueEnd = base + router.length - 1;
  const venueStart = venueEnd - Buffer.byteLength(made.venueJson);
  const pieces = new PieceList();
  pieces.add(base, base + marketsOpen);
  made.splices.forEach((splice, index) => {
    // Between markets the stored JSON's own comma where it has them (the pieces then join up), else the shell's.
    if (index > 0) {
      const after = made.marketRanges[index]?.[0];
      if (after === undefined) pieces.add(...shellComma);
      else pieces.add(after - 1, after);
    }
    if (typeof splice === 'string') {
      const [start, end] = own[index]!;
      pieces.add(base + start, base + end);
      return;
    }
    const [market, end] = made.marketRanges[index]!;
    const [firstStart, firstEnd, firstIsId, secondStart, secondEnd] = splice;
    const [firstValue, secondValue] = firstIsId
      ? [
          [idStart, idEnd],
          [venueStart, venueEnd],
        ]
      : [
          [venueStart, venueEnd],
          [idStart, idEnd],
        ];
    pieces.add(market, market + firstStart);
    pieces.add(firstValue[0]!, firstValue[1]!);
    pieces.add(market + firstEnd, market + secondStart);
    pieces.add(secondValue[0]!, secondValue[1]!);
    pieces.add(market + secondEnd, end);
  });
  pieces.add(base + marketsClose, base + router.length);
  return { router, routerPieces: pieces.done() };
}

/** Ranges in order, a range that continues the one before joined to it. */
class PieceList {
  private readonly values: number[] = [];

  add(start: number, end: number): void {
    if (end === start) return;
    const last = this.values.length - 1;
    if (last > 0 && this.values[last] === start) this.values[last] = end;
    else this.values.push(start, end);
  }

  done(): Uint32Array {
    return Uint32Array.from(this.values);
  }
}

/** What the walk found of one market: its recorded references (`key:index` pairs, '' for none) and where its swap happens. */
interface WrittenMarket {
  refs: string;
  swap: Swap | undefined;
}

/**
 * Writes the market as stored. Its convenience references are left out when
 * every one (with a value) sits after all its other members and equals one
 * of its outcomes (the same object, or the same JSON): then `withBinaryRefsJson`
 * puts them back byte for byte. Otherwise the market is written whole. A
 * reference is held back as the walk meets it, and written after all (in its
 * place: nothing was written since) when a member follows it or it matches no
 * outcome.
 */
function writeMarket(out: JsonBytes, market: Market): WrittenMarket {
  if (typeof market !== 'object' || market === null || !isPlain(market)) {
    if (!out.value(market, 0)) out.text('null');
    return { refs: '', swap: undefined };
  }
  const members = market as unknown as Record<string, unknown>;
  const start = out.length;
  const outcomes = Array.isArray(market.outcomes) ? (market.outcomes as unknown[]) : undefined;
  held.length = 0;
  let outcomesWritten = false;
  let keptWhole = false;
  let [idStart, idEnd, venueStart, venueEnd] = [-1, -1, -1, -1];
  let first = true;
  out.byte(openBrace);
  for (const key in members) {
    if (!hasOwn(members, key)) continue;
    const value = members[key];
    // Left out of JSON, so no member as far as the bytes go.
    if (value === undefined) continue;
    const keyIndex = keptWhole ? -1 : refKeyNames.indexOf(key);
    if (keyIndex >= 0) {
      const outcome = matchingOutcome(out, value, outcomes, outcomesWritten);
      if (outcome >= 0) {
        held.push(keyIndex, outcome, value);
        continue;
      }
    }
    if (held.length > 0 || keyIndex >= 0) {
      // A member after a reference, or a reference equal to no outcome: the market is kept whole.
      keptWhole = true;
      first = writeHeld(out, outcomes, outcomesWritten, first);
    }
    const isOutcomes = key === 'outcomes' && outcomes !== undefined;
    if (isOutcomes) {
      outcomeRanges.length = 0;
      out.itemRanges = outcomeRanges;
    }
    const written = out.member(key, value, first);
    if (isOutcomes) {
      // The list's items were recorded only if it was written as a list.
      outcomesWritten = written && out.itemRanges === undefined;
      out.itemRanges = undefined;
    }
    if (!written) continue;
    first = false;
    if (key === 'eventId') [idStart, idEnd] = [out.lastValueStart - start, out.length - start];
    else if (key === 'sourceExchange') [venueStart, venueEnd] = [out.lastValueStart - start, out.length - start];
  }
  out.byte(closeBrace);
  // A market keeping a reference is serialised apart for the Router, which never sends one.
  if (keptWhole) return { refs: '', swap: undefined };
  let refs = '';
  for (let at = 0; at < held.length; at += 3) refs += `${at > 0 ? ',' : ''}${refKeyNames[held[at] as number]}:${held[at + 1] as number}`;
  if (idStart < 0 || venueStart < 0) return { refs, swap: undefined };
  const swap: Swap = idStart < venueStart ? [idStart, idEnd, true, venueStart, venueEnd] : [venueStart, venueEnd, false, idStart, idEnd];
  return { refs, swap };
}

/**
 * Per market, reused from one to the next: the references held back (key
 * index, outcome index and value, three items each) and where each of its
 * outcomes was written ([start, end) pairs).
 */
const held: unknown[] = [];
const outcomeRanges: number[] = [];

/** Writes the references held back, in their order, each copied from its outcome's bytes where it is that outcome; answers the next `first`. */
function writeHeld(out: JsonBytes, outcomes: unknown[] | undefined, outcomesWritten: boolean, first: boolean): boolean {
  for (let at = 0; at < held.length; at += 3) {
    const key = refKeyNames[held[at] as number]!;
    const outcome = held[at + 1] as number;
    const value = held[at + 2];
    if (outcomesWritten && outcomes![outcome] === value) out.copiedMember(key, outcomeRanges[outcome * 2]!, outcomeRanges[outcome * 2 + 1]!, first);
    else out.member(key, value, first);
    first = false;
  }
  held.length = 0;
  return first;
}

/** Which outcome `value` equals: the same object, else the one written with the same bytes (-1 for none). */
function matchingOutcome(out: JsonBytes, value: unknown, outcomes: unknown[] | undefined, outcomesWritten: boolean): number {
  if (!outcomes) return -1;
  const same = outcomes.indexOf(value);
  if (same >= 0 || !outcomesWritten) return same;
  // Written past the end for a look, then taken back out.
  const start = out.length;
  if (!out.value(value, 0)) return -1;
  const end = out.length;
  out.length = start;
  for (let index = 0; index * 2 < outcomeRanges.length; index += 1) {
    if (out.equalBytes(outcomeRanges[index * 2]!, outcomeRanges[index * 2 + 1]!, start, end)) return index;
  }
  return -1;
}

/**
 * The Router view's `sourceMetadata`: the event's, with `venueEventId` (the
 * venue's event id) and, when the event has a category, `venueCategory` set,
 * each in its place when the venue's metadata has that member already, else
 * after its members (as spreading it into a new object and setting them does).
 */
function writeRouterMetadata(out: JsonBytes, event: Event): void {
  const metadata = event.sourceMetadata as unknown;
  const category = event.category;
  if (metadata !== undefined && metadata !== null && !(typeof metadata === 'object' && isPlain(metadata as object) && !Array.isArray(metadata))) {
    out.text(JSON.stringify({ ...(metadata as object), venueEventId: event.id, ...(category ? { venueCategory: category } : {}) }));
    return;
  }
  const members = (metadata ?? {}) as Record<string, unknown>;
  out.byte(openBrace);
  let first = true;
  let hasId = false;
  let hasCategory = false;
  for (const key in members) {
    if (!hasOwn(members, key)) continue;
    let value = members[key];
    if (key === 'venueEventId') {
      hasId = true;
      value = event.id;
    } else if (key === 'venueCategory' && category) {
      hasCategory = true;
      value = category;
    }
    if (out.member(key, value, first)) first = false;
  }
  if (!hasId && out.member('venueEventId', event.id, first)) first = false;
  if (category && !hasCategory) out.member('venueCategory', category, first);
  out.byte(closeBrace);
}

/**
 * JSON written as UTF-8 straight into one buffer reused by every event
 * (grown when an event needs more): the same bytes `JSON.stringify` gives
 * (members in their order, `undefined` and functions left out, or `null` in
 * arrays, numbers as `String` writes them, non-finite ones as `null`, strings
 * escaped as it escapes them), without a string of the whole. A string with
 * nothing to escape and only ASCII (nearly every one) is copied a character
 * at a time; any other is escaped by `JSON.stringify` and encoded. A value
 * that is not plain data (a class instance, one with `toJSON`, one nested
 * very deep or in a cycle) is left to `JSON.stringify` whole, which answers
 * for it, or throws, as it would have.
 */
class JsonBytes {
  private static shared = new JsonBytes();
  private buffer = Buffer.allocUnsafeSlow(256 * 1024);
  length = 0;
  /** Where the last member's value starts. */
  lastValueStart = 0;
  /** Where the next list written records its items' [start, end) pairs (taken by it, so lists inside do not). */
  itemRanges: number[] | undefined;

  /** The shared writer, emptied: its bytes are valid until the next reset. */
  static reset(): JsonBytes {
    JsonBytes.shared.length = 0;
    return JsonBytes.shared;
  }

  /** The bytes written. */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  byte(value: number): void {
    this.room(1);
    this.buffer[this.length++] = value;
  }

  /** Text already JSON, encoded. */
  text(text: string): void {
    this.room(text.length * 3);
    this.length += this.buffer.write(text, this.length, 'utf8');
  }

  /** `,"key":` (no comma before the first member). */
  key(key: string, first: boolean): void {
    if (!first) this.byte(comma);
    this.string(key);
    this.byte(colon);
  }

  /** The member, unless its value is left out of JSON: answers whether it was written. */
  member(key: string, value: unknown, first: boolean): boolean {
    const start = this.length;
    this.key(key, first);
    this.lastValueStart = this.length;
    if (this.value(value, 0)) return true;
    this.length = start;
    return false;
  }

  /** A member whose value is bytes already written, at [start, end). */
  copiedMember(key: string, start: number, end: number, first: boolean): void {
    this.key(key, first);
    this.room(end - start);
    this.length += this.buffer.copy(this.buffer, this.length, start, end);
  }

  /** Whether the bytes at [a, aEnd) and [b, bEnd) are the same. */
  equalBytes(a: number, aEnd: number, b: number, bEnd: number): boolean {
    return aEnd - a === bEnd - b && this.buffer.compare(this.buffer, b, bEnd, a, aEnd) === 0;
  }

  /** Writes the value as JSON; answers false, writing nothing, for a value JSON leaves out (`undefined`, a function, a symbol). */
  value(value: unknown, depth: number): boolean {
    switch (typeof value) {
      case 'string':
        this.string(value);
        return true;
      case 'number':
        this.number(value);
        return true;
      case 'boolean':
        this.ascii(value ? 'true' : 'false');
        return true;
      case 'object':
        if (value === null) this.ascii('null');
        else if (depth > maxDepth || !isPlain(value)) return this.stringified(value);
        else if (Array.isArray(value)) this.array(value, depth);
        else this.object(value as Record<string, unknown>, depth);
        return true;
      case 'bigint':
        return this.stringified(value);
      default:
        return false;
    }
  }

  private array(items: readonly unknown[], depth: number): void {
    const ranges = this.itemRanges;
    this.itemRanges = undefined;
    this.byte(openBracket);
    for (let index = 0; index < items.length; index += 1) {
      if (index > 0) this.byte(comma);
      const start = this.length;
      if (!this.value(items[index], depth + 1)) this.ascii('null');
      ranges?.push(start, this.length);
    }
    this.byte(closeBracket);
  }

  private object(members: Record<string, unknown>, depth: number): void {
    this.byte(openBrace);
    let first = true;
    for (const key in members) {
      if (!hasOwn(members, key)) continue;
      const start = this.length;
      this.key(key, first);
      if (this.value(members[key], depth + 1)) first = false;
      else this.length = start;
    }
    this.byte(closeBrace);
  }

  private stringified(value: unknown): boolean {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) return false;
    this.text(text);
    return true;
  }

  private string(text: string): void {
    const start = this.length;
    this.room(text.length + 2);
    const buffer = this.buffer;
    let at = start;
    buffer[at++] = quote;
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (code < 0x20 || code === quote || code === backslash || code > 0x7f) {
        // Something to escape or encode: the whole string the slow way.
        this.length = start;
        this.text(JSON.stringify(text));
        return;
      }
      buffer[at++] = code;
    }
    buffer[at++] = quote;
    this.length = at;
  }

  /**
   * The number as `String` (and so `JSON.stringify`) writes it, without a
   * string of its own: what it writes is the shortest decimal that reads
   * back as the number. For one with at most `maxDecimals` decimals and
   * below 2^50 when scaled by them (prices, sizes, volumes), that decimal is
   * found here: the first `decimals` at which the scaled number, rounded,
   * divides back to exactly the number (the division is correctly rounded,
   * as reading the decimal is, so they agree; and scaled below 2^50, no
   * other whole number divides back to it, and rounding the scaled product
   * cannot miss it). Any other number is left to `String`.
   */
  private number(value: number): void {
    const size = Math.abs(value);
    if (size < maxPlain && (size >= 1e-6 || size === 0)) {
      for (let decimals = 0; decimals <= maxDecimals; decimals += 1) {
        const scale = powersOfTen[decimals]!;
        const scaled = Math.round(size * scale);
        if (scaled >= maxScaled) break;
        if (scaled / scale !== size) continue;
        this.room(32);
        if (value < 0) this.buffer[this.length++] = minus;
        this.digits(Math.floor(scaled / scale), 1);
        if (decimals > 0) {
          this.buffer[this.length++] = dot;
          this.digits(scaled % scale, decimals);
        }
        return;
      }
    }
    this.ascii(Number.isFinite(value) ? String(value) : 'null');
  }

  /** A whole number below 2^53, in at least `width` digits (zeros in front). */
  private digits(whole: number, width: number): void {
    let count = 1;
    while (count < 16 && whole >= powersOfTen[count]!) count += 1;
    if (count < width) count = width;
    const buffer = this.buffer;
    let at = this.length + count;
    this.length = at;
    for (let index = 0; index < count; index += 1) {
      buffer[--at] = 0x30 + (whole % 10);
      whole = Math.floor(whole / 10);
    }
  }

  /** Text known to need no escaping and to be ASCII. */
  private ascii(text: string): void {
    this.room(text.length);
    const buffer = this.buffer;
    let at = this.length;
    for (let index = 0; index < text.length; index += 1) buffer[at++] = text.charCodeAt(index);
    this.length = at;
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}

/** Numbers written by `JsonBytes.number` itself: at most this many decimals, below `maxPlain`, below `maxScaled` scaled. */
const maxDecimals = 12;
const maxPlain = 1e15;
const maxScaled = 2 ** 50;
const powersOfTen = Array.from({ length: 17 }, (_, power) => Number(`1e${power}`));
const [minus, dot] = [0x2d, 0x2e];
/** Deeper than this, a value is left to `JSON.stringify` (which also finds cycles). */
const maxDepth = 32;
const copied = (bytes: Buffer) => Buffer.from(bytes);
const hasOwn = (value: object, key: string) => Object.prototype.hasOwnProperty.call(value, key);

/** Plain data: an array, or an object of no class and without `toJSON` (whose JSON is its members). */
function isPlain(value: object): boolean {
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
