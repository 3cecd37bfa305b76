import { withoutBinaryRefs } from '@predgate/core';
import type { Event, Market } from '@predgate/core';
import type { RouterFacts } from './router-json.js';
import { trailingRefs } from './binary-refs.js';

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
 * byte for byte as serialising each would give, with each market serialised
 * once. A Router market is the stored one with its `eventId` and
 * `sourceExchange` values swapped for the catalog's, where the market holds
 * both once as strings (a venue's markets do): the view refers to those
 * markets' bytes in the stored JSON instead of copying them, so it costs a
 * few hundred bytes beside them, not a second copy of the event. Any other
 * market is serialised for the view into its shell. The text is encoded
 * piece by piece into one reused buffer, so no string is concatenated (and
 * flattened again) on the way; `keep` copies the results out of it.
 */
export function eventJson(event: Event, facts: RouterFacts, keep: (bytes: Buffer) => Buffer = copied): EventJson {
  const idJson = JSON.stringify(facts.id);
  const venueJson = JSON.stringify(facts.venue);
  const refs: string[] = [];
  const bareMarkets: Market[] = [];
  /** Per market, where the swap happens (relative to the market's own text), or its own Router JSON. */
  const splices: Array<Swap | string> = [];
  const out = new ScratchWriter();

  const shell = JSON.stringify({ ...event, markets: placeholder });
  const at = onlyAt(shell, placeholderMember);
  /** Each market's [start, end) in the stored JSON. */
  const marketRanges: Array<[number, number]> = [];
  if (at !== undefined) {
    out.text(shell.slice(0, at));
    out.text('"markets":[');
    event.markets.forEach((market, index) => {
      const pairs = trailingRefs(market);
      refs.push(pairs ?? '');
      const bare = pairs === undefined ? market : (withoutBinaryRefs(market) as Market);
      bareMarkets.push(bare);
      if (index > 0) out.text(',');
      const json = JSON.stringify(bare);
      const start = out.length;
      const written = out.text(json);
      marketRanges.push([start, start + written]);
      const ascii = written === json.length;
      const swap = pairs !== undefined || !hasRefKeys(market) ? swapAt(json, bare, ascii) : undefined;
      splices.push(swap ?? JSON.stringify({ ...withoutBinaryRefs(market), eventId: facts.id, sourceExchange: facts.venue }));
    });
    out.text(']');
    out.text(shell.slice(at + placeholderMember.length));
  } else {
    // A nested `markets: 0` as well: the event is serialised whole, and its markets are found by serialising each again.
    for (const market of event.markets) {
      const pairs = trailingRefs(market);
      refs.push(pairs ?? '');
      bareMarkets.push(pairs === undefined ? market : (withoutBinaryRefs(market) as Market));
    }
    out.text(JSON.stringify({ ...event, markets: bareMarkets }));
    for (const market of event.markets) {
      splices.push(JSON.stringify({ ...withoutBinaryRefs(market), eventId: facts.id, sourceExchange: facts.venue }));
    }
  }
  const json = keep(out.bytes());
  const { router, routerPieces } = routerForm(event, facts, { idJson, venueJson, json, marketRanges, splices }, keep);
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
  const shell = JSON.stringify({
    id: facts.id,
    title: event.title,
    description: event.description,
    slug: event.slug,
    markets: placeholder,
    volume24h: event.volume24h,
    ...(event.volume !== undefined ? { volume: event.volume } : {}),
    url: event.url,
    ...(event.image !== undefined ? { image: event.image } : {}),
    category: facts.category,
    ...(event.tags !== undefined ? { tags: event.tags } : {}),
    sourceMetadata: {
      ...event.sourceMetadata,
      venueEventId: event.id,
      ...(event.category ? { venueCategory: event.category } : {}),
    },
    sourceExchange: facts.venue,
  });
  // Its members before `markets` are strings, so the placeholder found first is the shell's own.
  const at = shell.indexOf(placeholderMember);
  const out = new ScratchWriter();
  out.text(shell.slice(0, at));
  out.text('"markets":[');
  const marketsOpen = out.length;
  const own: Array<[number, number]> = [];
  made.splices.forEach((splice, index) => {
    if (typeof splice !== 'string') return;
    if (own.length > 0) out.text(',');
    const start = out.length;
    out.text(splice);
    own[index] = [start, out.length];
  });
  const marketsClose = out.length;
  out.text(']');
  out.text(shell.slice(at + placeholderMember.length));
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

/**
 * Text encoded as UTF-8 into one buffer reused by every event (grown when an
 * event needs more), so an event's pieces are written where they will be
 * copied from, without a buffer or a joined string of their own.
 */
class ScratchWriter {
  private static buffer = Buffer.allocUnsafeSlow(256 * 1024);
  length = 0;

  /** Writes the text; answers how many bytes it took. */
  text(text: string): number {
    for (;;) {
      const room = ScratchWriter.buffer.subarray(this.length);
      const { read, written } = utf8.encodeInto(text, room);
      if (read === text.length) {
        this.length += written;
        return written;
      }
      const grown = Buffer.allocUnsafeSlow(Math.max(ScratchWriter.buffer.length * 2, this.length + text.length * 3));
      ScratchWriter.buffer.copy(grown, 0, 0, this.length);
      ScratchWriter.buffer = grown;
    }
  }

  /** The bytes written, valid until the next writer starts. */
  bytes(): Buffer {
    return ScratchWriter.buffer.subarray(0, this.length);
  }
}

const utf8 = new TextEncoder();
const copied = (bytes: Buffer) => Buffer.from(bytes);

/** Stands where the markets go in a serialised shell: a number, never produced by a string or an object around it. */
const placeholder = 0;
const placeholderMember = '"markets":0';

/**
 * Where the values of the market's `eventId` and `sourceExchange` members
 * sit in its JSON, as byte offsets. Only when both are strings and each member
 * (key and value) occurs once in the text: a key is the only place
 * `"eventId":` can start (inside a string its quotes are escaped), so one
 * occurrence is the market's own.
 */
function swapAt(json: string, market: Market, ascii: boolean): Swap | undefined {
  const { eventId, sourceExchange } = market as { eventId?: unknown; sourceExchange?: unknown };
  if (typeof eventId !== 'string' || typeof sourceExchange !== 'string') return undefined;
  const idMember = `"eventId":${JSON.stringify(eventId)}`;
  const venueMember = `"sourceExchange":${JSON.stringify(sourceExchange)}`;
  const idAt = onlyAt(json, idMember);
  const venueAt = onlyAt(json, venueMember);
  if (idAt === undefined || venueAt === undefined) return undefined;
  // Members never overlap: a member's text starts at its key and ends with its string value.
  const bytes = (index: number) => (ascii ? index : Buffer.byteLength(json.slice(0, index)));
  const idValue = [bytes(idAt + '"eventId":'.length), bytes(idAt + idMember.length)] as const;
  const venueValue = [bytes(venueAt + '"sourceExchange":'.length), bytes(venueAt + venueMember.length)] as const;
  return idAt < venueAt ? [...idValue, true, ...venueValue] : [...venueValue, false, ...idValue];
}

/** Where `member` is in `text`, when it is there exactly once. */
function onlyAt(text: string, member: string): number | undefined {
  const at = text.indexOf(member);
  return at >= 0 && text.indexOf(member, at + 1) < 0 ? at : undefined;
}

/** A convenience reference left in the market (not trailing, or not one of its outcomes): its Router view is serialised apart. */
function hasRefKeys(market: Market): boolean {
  const members = market as unknown as Record<string, unknown>;
  return members.yes !== undefined || members.no !== undefined || members.up !== undefined || members.down !== undefined;
}
