import { withBinaryRefs } from '@predgate/core';
import type { Event, Market } from '@predgate/core';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { sampleCatalog } from '../../test/fixtures.js';
import { JsonOut } from '../json-out.js';
import { eventRefPlaces, marketWithBinaryRefs, withBinaryRefsJson, writeMarketWithBinaryRefs, writeWithRefPlaces } from './binary-refs.js';
import { eventJson } from './event-json.js';
import { arrayMemberRanges } from './json-ranges.js';

/** Stored without references, then put back: the event's exact bytes, and each market's. */
function expectExactRoundTrip(event: Event): { refs: string; stored: Buffer } {
  const before = JSON.stringify(event);
  const { json, refs } = eventJson(event, { id: 'uuid', venue: 'mock', category: 'Other' });
  // The adapter's event is left as it came: only the stored JSON goes without its references.
  expect(JSON.stringify(event)).toBe(before);
  const stored = Buffer.from(json);
  expect(withBinaryRefsJson(stored, refs).toString('utf8')).toBe(JSON.stringify(event));
  if (refs !== '') {
    // Written into an answer after other bytes, from places found once and used twice.
    const out = new JsonOut();
    const places = eventRefPlaces(stored, refs);
    out.text('[');
    writeWithRefPlaces(stored, places, out);
    out.text(',');
    writeWithRefPlaces(stored, places, out);
    expect(out.finish().toString('utf8')).toBe(`[${JSON.stringify(event)},${JSON.stringify(event)}`);
  }
  const ranges = arrayMemberRanges(stored, 'markets') ?? new Uint32Array(0);
  const perMarket = refs === '' ? [] : refs.split(';');
  event.markets.forEach((market, index) => {
    const bytes = stored.subarray(ranges[index * 2], ranges[index * 2 + 1]);
    expect(marketWithBinaryRefs(bytes, perMarket[index]).toString('utf8')).toBe(JSON.stringify(market));
    const out = new JsonOut();
    out.text('[');
    writeMarketWithBinaryRefs(bytes, perMarket[index], out);
    expect(out.finish().toString('utf8')).toBe(`[${JSON.stringify(market)}`);
  });
  return { refs, stored };
}

const outcome = (id: string, label: string, price: number) => ({ outcomeId: id, marketId: 'm', label, price });
const binary = (extra: Partial<Market> = {}): Market =>
  withBinaryRefs({ marketId: 'm', title: 'T', outcomes: [outcome('y', 'Yes', 0.4), outcome('n', 'No', 0.6)], volume24h: 1, ...extra } as Market);
const event = (markets: Market[]): Event => ({ id: 'e', title: 'E', slug: 'e', markets, volume24h: 1, url: 'u' }) as Event;

describe('binary references kept out of stored bytes', () => {
  test('the sample catalog round-trips, and its references are taken out', () => {
    for (const events of Object.values(sampleCatalog())) {
      for (const item of events) {
        const { refs, stored } = expectExactRoundTrip(item);
        expect(refs).not.toBe('');
        expect(stored.toString('utf8')).not.toMatch(/"yes":/);
      }
    }
  });

  test('references equal to an outcome but not the same object (a parsed venue answer) are taken out too', () => {
    const parsed = JSON.parse(JSON.stringify(event([binary()]))) as Event;
    expect(expectExactRoundTrip(parsed).refs).toBe('yes:0,no:1,up:0,down:1');
  });

  test.each([
    ['references before other members', event([{ yes: outcome('y', 'Yes', 0.4), ...binary() } as Market])],
    ['a reference equal to no outcome', event([{ ...binary(), yes: outcome('y', 'Yes', 0.41) } as Market])],
    ['a reference with the members in another order', event([{ ...binary(), no: { marketId: 'm', outcomeId: 'n', label: 'No', price: 0.6 } } as Market])],
  ])('a market with %s is kept whole', (_name, item) => {
    expect(expectExactRoundTrip(item).refs).toBe('');
  });

  test('markets with and without references mix, and no markets at all is nothing to do', () => {
    const mixed = event([
      binary(),
      { ...binary(), yes: outcome('x', 'X', 1) } as Market,
      binary({ outcomes: [outcome('a', 'A', 0.2), outcome('b', 'B', 0.8)] }),
    ]);
    expect(expectExactRoundTrip(mixed).refs).toBe('yes:0,no:1,up:0,down:1;;yes:0,no:1,up:0,down:1');
    expect(expectExactRoundTrip(event([])).refs).toBe('');
  });

  test('arbitrary markets round-trip exactly', () => {
    const arbitraryOutcome = fc.record({
      outcomeId: fc.string({ maxLength: 6 }),
      label: fc.string({ maxLength: 6 }),
      price: fc.double({ noNaN: true, noDefaultInfinity: true }),
    });
    const arbitraryMarket = fc
      .record({
        marketId: fc.string({ maxLength: 6 }),
        outcomes: fc.array(arbitraryOutcome, { maxLength: 3 }),
        extra: fc.jsonValue(),
        refs: fc.boolean(),
        odd: fc.option(fc.jsonValue()),
      })
      .map(({ refs, odd, ...market }) => {
        const base = { ...market, title: 't', volume24h: 0 } as unknown as Market;
        const withRefs = refs ? withBinaryRefs(base) : base;
        return (odd === null ? withRefs : { ...withRefs, up: odd }) as Market;
      });
    fc.assert(
      fc.property(fc.array(arbitraryMarket, { maxLength: 4 }), (markets) => {
        expectExactRoundTrip(JSON.parse(JSON.stringify(event(markets))) as Event);
      }),
      { numRuns: 400 },
    );
  });
});
