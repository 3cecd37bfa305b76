import type { Market } from '@predgate/core';
import type { JsonOut } from '../json-out.js';
import { arrayMemberRanges } from './json-ranges.js';

const refKeys = new Set(['yes', 'no', 'up', 'down']);

/**
 * How an event is stored: its JSON without the convenience references its
 * binary markets carry (`yes`, `no`, `up`, `down`: copies of two of the
 * market's outcomes, about a third of a typical event's JSON), and where each
 * one was: per market, `key:index` pairs joined by `,`, markets joined by
 * `;`, empty when nothing was taken out (made by `eventJson` in
 * event-json.ts). Only references that are the market's last members and
 * equal one of its outcomes are taken out (`trailingRefs`), so
 * `withBinaryRefsJson` gives back the event's exact bytes; any other market
 * is kept whole.
 */

/** The event's JSON with the references `eventJson` took out put back, byte for byte, written into one buffer. */
export function withBinaryRefsJson(json: Buffer, refs: string): Buffer {
  if (refs === '') return json;
  const { inserts, length } = eventRefInserts(json, refs);
  return spliced(json, 0, json.length, inserts, Buffer.allocUnsafe(length), 0);
}

/** The same bytes as `withBinaryRefsJson`, written into `out` instead of a buffer of their own. */
export function writeWithBinaryRefs(json: Buffer, refs: string, out: JsonOut): void {
  if (refs === '') return out.bytes(json);
  const { inserts, length } = eventRefInserts(json, refs);
  spliced(json, 0, json.length, inserts, out.room(length), out.length);
  out.length += length;
}

/** One market's JSON with its recorded references put back, written into `out`. */
export function writeMarketWithBinaryRefs(market: Buffer, refs: string | undefined, out: JsonOut): void {
  const insert = refInserts(market, 0, market.length, refs);
  if (!insert) return out.bytes(market);
  const length = market.length + insert.length;
  spliced(market, 0, market.length, [insert], out.room(length), out.length);
  out.length += length;
}

/** One market's JSON with its recorded references put back. */
export function marketWithBinaryRefs(market: Buffer, refs: string | undefined): Buffer {
  const insert = refInserts(market, 0, market.length, refs);
  return insert ? spliced(market, 0, market.length, [insert], Buffer.allocUnsafe(market.length + insert.length), 0) : market;
}

/** What goes into the event's JSON for its recorded references, and the length it then has. */
function eventRefInserts(json: Buffer, refs: string): { inserts: RefInsert[]; length: number } {
  const perMarket = refs.split(';');
  const markets = arrayMemberRanges(json, 'markets');
  if (!markets) throw new Error('stored event without markets has binary references recorded');
  const inserts: RefInsert[] = [];
  let length = json.length;
  for (let index = 0; index * 2 < markets.length; index += 1) {
    const market = refInserts(json, markets[index * 2]!, markets[index * 2 + 1]!, perMarket[index]);
    if (market) {
      inserts.push(market);
      length += market.length;
    }
  }
  return { inserts, length };
}

/** What goes before a market's closing brace: `"key":` texts, each followed by bytes of one of its outcomes. */
interface RefInsert {
  /** Where the market's closing brace sits. */
  at: number;
  pieces: Array<{ text: string; start: number; end: number }>;
  length: number;
}

/** The references recorded for the market at [start, end) of `json`, as bytes to insert; undefined for none. */
function refInserts(json: Buffer, start: number, end: number, refs: string | undefined): RefInsert | undefined {
  if (!refs) return undefined;
  const market = json.subarray(start, end);
  const outcomes = arrayMemberRanges(market, 'outcomes');
  if (!outcomes) throw new Error('stored market without outcomes has binary references recorded');
  const pieces: RefInsert['pieces'] = [];
  let length = 0;
  let first = market.length === 2;
  for (const pair of refs.split(',')) {
    const [key, position] = pair.split(':') as [string, string];
    const index = Number(position);
    const text = `${first ? '' : ','}"${key}":`;
    const outcomeStart = start + outcomes[index * 2]!;
    const outcomeEnd = start + outcomes[index * 2 + 1]!;
    pieces.push({ text, start: outcomeStart, end: outcomeEnd });
    length += text.length + outcomeEnd - outcomeStart;
    first = false;
  }
  return { at: end - 1, pieces, length };
}

/** `json` from `start` to `end` with each insert written before its closing brace, into `target` from `at` on. */
function spliced(json: Buffer, start: number, end: number, inserts: readonly RefInsert[], target: Buffer, at: number): Buffer {
  let written = at;
  let copied = start;
  for (const insert of inserts) {
    written += json.copy(target, written, copied, insert.at);
    copied = insert.at;
    for (const piece of insert.pieces) {
      // Keys are the four ASCII reference names.
      written += target.write(piece.text, written, 'latin1');
      written += json.copy(target, written, piece.start, piece.end);
    }
  }
  json.copy(target, written, copied, end);
  return target;
}

/** `key:index` pairs when every reference sits at the end of the market and equals one of its outcomes. */
export function trailingRefs(market: Market): string | undefined {
  const members = market as unknown as Record<string, unknown>;
  let pairs: string | undefined;
  for (const key of Object.keys(members)) {
    const value = members[key];
    // Left out of JSON, so no member as far as the bytes go.
    if (value === undefined) continue;
    if (!refKeys.has(key)) {
      // A member after a reference: the references are not the last members.
      if (pairs !== undefined) return undefined;
      continue;
    }
    let found = market.outcomes.indexOf(value as Market['outcomes'][number]);
    if (found < 0) found = market.outcomes.findIndex((outcome) => sameJson(outcome, value));
    if (found < 0) return undefined;
    pairs = `${pairs === undefined ? '' : `${pairs},`}${key}:${found}`;
  }
  return pairs;
}

/** Equal as JSON text would be: same members in the same order, same values. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, index) => sameJson(item, other[index]));
  }
  const aKeys = Object.keys(a).filter((key) => (a as Record<string, unknown>)[key] !== undefined);
  const bKeys = Object.keys(b).filter((key) => (b as Record<string, unknown>)[key] !== undefined);
  return (
    aKeys.length === bKeys.length &&
    aKeys.every((key, index) => key === bKeys[index] && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
  );
}
