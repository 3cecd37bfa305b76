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
 */
export function routerJson(source: Buffer, facts: RouterFacts): Buffer {
  const event = membersByKey(source, 0);
  const parts: Buffer[] = [];
  let first = true;
  const member = (key: string, value: Buffer | undefined) => {
    if (value === undefined) return;
    parts.push(Buffer.from(`${first ? '{' : ','}${JSON.stringify(key)}:`), value);
    first = false;
  };
  const copied = (key: string) => slice(source, event.get(key));
  const venueJson = Buffer.from(JSON.stringify(facts.venue));
  const idJson = Buffer.from(JSON.stringify(facts.id));
  const venueCategory = copied('category');
  const hasVenueCategory = venueCategory !== undefined && !isFalsy(venueCategory);

  member('id', idJson);
  member('title', copied('title'));
  member('description', copied('description'));
  member('slug', copied('slug'));
  member(
    'markets',
    marketsJson(source, event.get('markets'), [
      ['eventId', idJson],
      ['sourceExchange', venueJson],
    ]),
  );
  member('volume24h', copied('volume24h'));
  member('volume', copied('volume'));
  member('url', copied('url'));
  member('image', copied('image'));
  member('category', Buffer.from(JSON.stringify(facts.category)));
  member('tags', copied('tags'));
  const metadata = event.get('sourceMetadata');
  const metadataMembers = metadata && source[metadata.valueStart] === openBrace ? objectMembers(source, metadata.valueStart).members : [];
  member(
    'sourceMetadata',
    spliced(source, metadataMembers, new Set(), [
      ['venueEventId', copied('id') ?? Buffer.from('null')],
      ...(hasVenueCategory ? [['venueCategory', venueCategory] as const] : []),
    ]),
  );
  member('sourceExchange', venueJson);
  parts.push(Buffer.from('}'));
  return Buffer.concat(parts);
}

const binaryRefs = new Set(['yes', 'no', 'up', 'down']);

/** Each market without its convenience references, with the catalog's event id and venue. */
function marketsJson(source: Buffer, markets: JsonMember | undefined, overrides: ReadonlyArray<readonly [string, Buffer]>): Buffer {
  if (!markets) return Buffer.from('[]');
  const ranges = arrayElements(source, markets.valueStart);
  const parts: Buffer[] = [Buffer.from('[')];
  for (let index = 0; index < ranges.length; index += 2) {
    if (index > 0) parts.push(Buffer.from(','));
    parts.push(spliced(source, objectMembers(source, ranges[index]!).members, binaryRefs, overrides));
  }
  parts.push(Buffer.from(']'));
  return Buffer.concat(parts);
}

/**
 * An object as `{ ...members without dropped, ...overrides }` serialises: an
 * overridden key keeps its place, a new one goes last, in override order.
 */
function spliced(source: Buffer, members: readonly JsonMember[], dropped: ReadonlySet<string>, overrides: ReadonlyArray<readonly [string, Buffer]>): Buffer {
  const parts: Buffer[] = [];
  const written = new Set<string>();
  const write = (key: string, value: Buffer) => {
    parts.push(Buffer.from(`${parts.length === 0 ? '{' : ','}${JSON.stringify(key)}:`), value);
  };
  for (const member of members) {
    if (dropped.has(member.key)) continue;
    const override = overrides.find(([key]) => key === member.key);
    write(member.key, override ? override[1] : source.subarray(member.valueStart, member.valueEnd));
    written.add(member.key);
  }
  for (const [key, value] of overrides) if (!written.has(key)) write(key, value);
  if (parts.length === 0) return Buffer.from('{}');
  parts.push(Buffer.from('}'));
  return Buffer.concat(parts);
}

function membersByKey(source: Buffer, start: number): Map<string, JsonMember> {
  return new Map(objectMembers(source, start).members.map((member) => [member.key, member]));
}

function slice(source: Buffer, member: JsonMember | undefined): Buffer | undefined {
  return member ? source.subarray(member.valueStart, member.valueEnd) : undefined;
}

function isFalsy(value: Buffer): boolean {
  const text = value.toString('latin1');
  return text === '""' || text === 'null' || text === 'false' || text === '0';
}

const openBrace = 0x7b;
