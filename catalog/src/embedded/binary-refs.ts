import type { JsonOut } from '../json-out.js';
import { arrayMemberRanges } from './json-ranges.js';

/** The convenience references' keys, in the order their indexes in `refs` and `RefPlaces` count. */
export const refKeyNames = ['yes', 'no', 'up', 'down'];

/**
 * How an event is stored: its JSON without the convenience references its
 * binary markets carry (`yes`, `no`, `up`, `down`: copies of two of the
 * market's outcomes, about a third of a typical event's JSON), and where each
 * one was: per market, `key:index` pairs joined by `,`, markets joined by
 * `;`, empty when nothing was taken out (made by `eventJson` in
 * event-json.ts). Only references that are the market's last members and
 * equal one of its outcomes are taken out, so
 * `withBinaryRefsJson` gives back the event's exact bytes; any other market
 * is kept whole.
 */

/**
 * Where an event's references go back, as numbers kept with its entry (see
 * `StoredEntry.writeSourceJson`), so a page that sends the event again does
 * not scan its JSON again for its markets and their outcomes: four per
 * reference, in order, namely where the market's closing brace sits, where
 * the outcome it copies starts and ends, and which key it is (its index in
 * `refKeyTexts`, the first member of an empty market without the comma).
 */
export type RefPlaces = Uint32Array;

// Four with a leading comma, then the same four for an empty market's first member.
const refKeyTexts = [...refKeyNames.map((key) => Buffer.from(`,"${key}":`)), ...refKeyNames.map((key) => Buffer.from(`"${key}":`))];

/** The event's JSON with the references `eventJson` took out put back, byte for byte, written into one buffer. */
export function withBinaryRefsJson(json: Buffer, refs: string): Buffer {
  if (refs === '') return json;
  const places = eventRefPlaces(json, refs);
  return spliced(json, places, Buffer.allocUnsafe(json.length + placedLength(places)), 0);
}

/** The same bytes as `withBinaryRefsJson`, written into `out` from places found before (`eventRefPlaces`). */
export function writeWithRefPlaces(json: Buffer, places: RefPlaces, out: JsonOut): void {
  const length = json.length + placedLength(places);
  spliced(json, places, out.room(length), out.length);
  out.length += length;
}

/** One market's JSON with its recorded references put back, written into `out`. */
export function writeMarketWithBinaryRefs(market: Buffer, refs: string | undefined, out: JsonOut): void {
  if (!refs) return out.bytes(market);
  writeWithRefPlaces(market, marketRefPlaces(market, refs), out);
}

/** One market's JSON with its recorded references put back. */
export function marketWithBinaryRefs(market: Buffer, refs: string | undefined): Buffer {
  if (!refs) return market;
  const places = marketRefPlaces(market, refs);
  return spliced(market, places, Buffer.allocUnsafe(market.length + placedLength(places)), 0);
}

/** Where the event's recorded references (`refs`, not empty) go back into its stored JSON. */
export function eventRefPlaces(json: Buffer, refs: string): RefPlaces {
  const perMarket = refs.split(';');
  const markets = arrayMemberRanges(json, 'markets');
  if (!markets) throw new Error('stored event without markets has binary references recorded');
  const places: number[] = [];
  for (let index = 0; index * 2 < markets.length; index += 1) {
    refPlacesOf(json, markets[index * 2]!, markets[index * 2 + 1]!, perMarket[index], places);
  }
  return Uint32Array.from(places);
}

function marketRefPlaces(market: Buffer, refs: string): RefPlaces {
  const places: number[] = [];
  refPlacesOf(market, 0, market.length, refs, places);
  return Uint32Array.from(places);
}

/** Adds to `places` where the references recorded for the market at [start, end) of `json` go back. */
function refPlacesOf(json: Buffer, start: number, end: number, refs: string | undefined, places: number[]): void {
  if (!refs) return;
  const outcomes = arrayMemberRanges(json.subarray(start, end), 'outcomes');
  if (!outcomes) throw new Error('stored market without outcomes has binary references recorded');
  let first = end - start === 2;
  for (const pair of refs.split(',')) {
    const [key, position] = pair.split(':') as [string, string];
    const index = Number(position);
    const keyIndex = refKeyNames.indexOf(key);
    if (keyIndex < 0 || outcomes[index * 2 + 1] === undefined) throw new Error(`binary reference ${pair} recorded for no such outcome`);
    places.push(end - 1, start + outcomes[index * 2]!, start + outcomes[index * 2 + 1]!, keyIndex + (first ? refKeyNames.length : 0));
    first = false;
  }
}

/** How many bytes the references at `places` add. */
function placedLength(places: RefPlaces): number {
  let length = 0;
  for (let at = 0; at < places.length; at += 4) length += refKeyTexts[places[at + 3]!]!.length + places[at + 2]! - places[at + 1]!;
  return length;
}

/** `json` with each reference at `places` written before its market's closing brace, into `target` from `at` on. */
function spliced(json: Buffer, places: RefPlaces, target: Buffer, at: number): Buffer {
  let written = at;
  let copied = 0;
  for (let place = 0; place < places.length; place += 4) {
    const brace = places[place]!;
    written += json.copy(target, written, copied, brace);
    copied = brace;
    written += refKeyTexts[places[place + 3]!]!.copy(target, written);
    written += json.copy(target, written, places[place + 1]!, places[place + 2]!);
  }
  json.copy(target, written, copied, json.length);
  return target;
}
