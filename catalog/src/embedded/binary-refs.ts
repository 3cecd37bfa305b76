import { withoutBinaryRefs } from '@predgate/core';
import type { Event, Market } from '@predgate/core';
import { arrayMemberRanges } from './json-ranges.js';

const refKeys = new Set(['yes', 'no', 'up', 'down']);

/**
 * The event's JSON without the convenience references its binary markets
 * carry (`yes`, `no`, `up`, `down`: copies of two of the market's outcomes,
 * about a third of a typical event's JSON), and where each one was: per
 * market, `key:index` pairs joined by `,`, markets joined by `;`, empty when
 * nothing was taken out. Only references that are the market's last members
 * and equal one of its outcomes are taken out, so `withBinaryRefsJson` gives
 * back the event's exact bytes; any other market is kept whole.
 */
export function storedJson(event: Event): { json: string; refs: string } {
  const perMarket = event.markets.map(trailingRefs);
  if (perMarket.every((refs) => refs === undefined)) return { json: JSON.stringify(event), refs: '' };
  // References checked to be the last members: leaving out every reference key leaves the others in their order.
  const markets = event.markets.map((market, index) => (perMarket[index] === undefined ? market : withoutBinaryRefs(market)));
  return { json: JSON.stringify({ ...event, markets }), refs: perMarket.map((pairs) => pairs ?? '').join(';') };
}

/** The event's JSON with the references `storedJson` took out put back, byte for byte. */
export function withBinaryRefsJson(json: Buffer, refs: string): Buffer {
  if (refs === '') return json;
  const perMarket = refs.split(';');
  const markets = arrayMemberRanges(json, 'markets');
  if (!markets) throw new Error('stored event without markets has binary references recorded');
  const parts: Buffer[] = [];
  let copied = 0;
  for (let index = 0; index * 2 < markets.length; index += 1) {
    const start = markets[index * 2]!;
    const end = markets[index * 2 + 1]!;
    parts.push(json.subarray(copied, start), marketWithBinaryRefs(json.subarray(start, end), perMarket[index]));
    copied = end;
  }
  parts.push(json.subarray(copied));
  return Buffer.concat(parts);
}

/** One market's JSON with its recorded references put back. */
export function marketWithBinaryRefs(market: Buffer, refs: string | undefined): Buffer {
  if (!refs) return market;
  const outcomes = arrayMemberRanges(market, 'outcomes');
  if (!outcomes) throw new Error('stored market without outcomes has binary references recorded');
  const parts: Buffer[] = [market.subarray(0, market.length - 1)];
  let first = market.length === 2;
  for (const pair of refs.split(',')) {
    const [key, position] = pair.split(':') as [string, string];
    const index = Number(position);
    parts.push(Buffer.from(`${first ? '' : ','}"${key}":`), market.subarray(outcomes[index * 2], outcomes[index * 2 + 1]));
    first = false;
  }
  parts.push(closeBrace);
  return Buffer.concat(parts);
}

/** `key:index` pairs when every reference sits at the end of the market and equals one of its outcomes. */
function trailingRefs(market: Market): string | undefined {
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

const closeBrace = Buffer.from('}');
