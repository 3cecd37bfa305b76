import type { NormalizedCategory } from '../categories.js';
import { arrayElements, objectMembers } from './json-ranges.js';
import type { JsonMember } from './json-ranges.js';

/** What the Router's view of an event adds to the venue's: the catalog's own facts about it. */
export interface RouterFacts {
  /** The catalog UUID. */
  id: string;
  venue: string;
  category: NormalizedCategory;
}

/**
 * The Router's view of an event (what `routerView` in document.ts builds,
 * byte for byte), spliced from the venue event's JSON instead of parsed and
 * serialised again: the embedded store keeps only the venue's bytes, and a
 * page of Router events costs a scan of those bytes, not a parse of them.
 * Members kept are copied with their keys as they stand; the view is written
 * into one buffer at the end, not built from a buffer per member.
 */
export function routerJson(source: Buffer, facts: RouterFacts): Buffer {
  const event = membersByKey(source, 0);
  const view = new Splice(source);
  const venueJson = Buffer.from(JSON.stringify(facts.venue));
  const idJson = Buffer.from(JSON.stringify(facts.id));
  const venueCategory = event.get('category');
  const hasVenueCategory = venueCategory !== undefined && !isFalsy(source, venueCategory);
  const copied = (key: string) => {
    const member = event.get(key);
    if (member) view.member(member);
  };

  view.open();
  view.value('id', idJson);
  copied('title');
  copied('description');
  copied('slug');
  const markets = event.get('markets');
  view.key('markets');
  if (markets)
    spliceMarkets(view, markets, [
      ['eventId', idJson],
      ['sourceExchange', venueJson],
    ]);
  else view.constant(emptyArray);
  copied('volume24h');
  copied('volume');
  copied('url');
  copied('image');
  view.value('category', Buffer.from(JSON.stringify(facts.category)));
  copied('tags');
  const metadata = event.get('sourceMetadata');
  const metadataMembers = metadata && source[metadata.valueStart] === openBrace ? objectMembers(source, metadata.valueStart).members : [];
  const venueEventId = event.get('id');
  view.key('sourceMetadata');
  splicedObject(view, metadataMembers, noneDropped, [
    ['venueEventId', venueEventId ? [venueEventId.valueStart, venueEventId.valueEnd] : nullJson],
    ...(hasVenueCategory ? [['venueCategory', [venueCategory.valueStart, venueCategory.valueEnd]] as const] : []),
  ]);
  view.value('sourceExchange', venueJson);
  view.close();
  return view.bytes();
}

const binaryRefs = new Set(['yes', 'no', 'up', 'down']);
const noneDropped = new Set<string>();
const emptyArray = Buffer.from('[]');
const nullJson = Buffer.from('null');

/** A value to write: bytes of its own, or a [start, end) range of the source. */
type Value = Buffer | readonly [number, number];

/** Each market without its convenience references, with the catalog's event id and venue. */
function spliceMarkets(view: Splice, markets: JsonMember, overrides: ReadonlyArray<readonly [string, Value]>): void {
  const ranges = arrayElements(view.source, markets.valueStart);
  view.constant(openBracketBytes);
  for (let index = 0; index < ranges.length; index += 2) {
    if (index > 0) view.constant(commaBytes);
    splicedObject(view, objectMembers(view.source, ranges[index]!).members, binaryRefs, overrides);
  }
  view.constant(closeBracketBytes);
}

/**
 * An object as `{ ...members without dropped, ...overrides }` serialises: an
 * overridden key keeps its place, a new one goes last, in override order.
 */
function splicedObject(view: Splice, members: readonly JsonMember[], dropped: ReadonlySet<string>, overrides: ReadonlyArray<readonly [string, Value]>): void {
  view.open();
  let written = 0;
  for (const member of members) {
    if (dropped.has(member.key)) continue;
    const override = overrides.find(([key]) => key === member.key);
    if (override) {
      view.separator();
      view.range(member.keyStart, member.valueStart);
      view.write(override[1]);
      written |= 1 << overrides.indexOf(override);
    } else view.member(member);
  }
  overrides.forEach(([key, value], index) => {
    if (!(written & (1 << index))) view.value(key, value);
  });
  view.close();
}

/**
 * The pieces of a JSON text spliced from a source: ranges of the source and
 * bytes of their own, written into one buffer at the end. Tracks whether the
 * object being written has a member yet, for its separators.
 */
class Splice {
  private readonly pieces: Array<Buffer | number> = [];
  private length = 0;
  private first = true;

  constructor(readonly source: Buffer) {}

  open(): void {
    this.constant(openBraceBytes);
    this.first = true;
  }

  close(): void {
    this.constant(closeBraceBytes);
    this.first = false;
  }

  /** A member of the source, key and value as they stand there. */
  member(member: JsonMember): void {
    this.separator();
    this.range(member.keyStart, member.valueEnd);
  }

  value(key: string, value: Value): void {
    this.key(key);
    this.write(value);
  }

  key(key: string): void {
    this.separator();
    this.constant(keyBytes(key));
  }

  separator(): void {
    if (!this.first) this.constant(commaBytes);
    this.first = false;
  }

  write(value: Value): void {
    if (Buffer.isBuffer(value)) this.constant(value);
    else this.range(value[0], value[1]);
  }

  constant(bytes: Buffer): void {
    this.pieces.push(bytes);
    this.length += bytes.length;
  }

  range(start: number, end: number): void {
    this.pieces.push(start, end);
    this.length += end - start;
  }

  bytes(): Buffer {
    const target = Buffer.allocUnsafe(this.length);
    let at = 0;
    for (let index = 0; index < this.pieces.length; index += 1) {
      const piece = this.pieces[index]!;
      if (typeof piece === 'number') {
        const end = this.pieces[(index += 1)] as number;
        at += this.source.copy(target, at, piece, end);
      } else at += piece.copy(target, at);
    }
    return target;
  }
}

const keys = new Map<string, Buffer>();

/** `"key":`, made once per key name. */
function keyBytes(key: string): Buffer {
  let bytes = keys.get(key);
  if (!bytes) keys.set(key, (bytes = Buffer.from(`${JSON.stringify(key)}:`)));
  return bytes;
}

function membersByKey(source: Buffer, start: number): Map<string, JsonMember> {
  return new Map(objectMembers(source, start).members.map((member) => [member.key, member]));
}

function isFalsy(source: Buffer, member: JsonMember): boolean {
  const text = source.toString('latin1', member.valueStart, member.valueEnd);
  return text === '""' || text === 'null' || text === 'false' || text === '0';
}

const openBrace = 0x7b;
const openBraceBytes = Buffer.from('{');
const closeBraceBytes = Buffer.from('}');
const openBracketBytes = Buffer.from('[');
const closeBracketBytes = Buffer.from(']');
const commaBytes = Buffer.from(',');
