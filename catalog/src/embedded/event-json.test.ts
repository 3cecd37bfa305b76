import { withBinaryRefs } from '@predgate/core';
import type { Event, Market } from '@predgate/core';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { arbitraryEvent, sampleCatalog } from '../../test/fixtures.js';
import { catalogEntry } from '../document.js';
import { withBinaryRefsJson } from './binary-refs.js';
import { eventJson, routerViewBytes } from './event-json.js';

/** Both texts made at once must be exactly what serialising the event and the document's Router view gives. */
function expectExact(event: Event, venue = 'mock'): void {
  const before = JSON.stringify(event);
  const entry = catalogEntry(venue, event);
  const { json, refs, router, routerPieces } = eventJson(event, entry);
  expect(JSON.stringify(event)).toBe(before);
  expect(JSON.parse(router.toString('utf8'))).toBeTypeOf('object');
  expect(routerViewBytes(json, router, routerPieces).toString('utf8')).toBe(JSON.stringify(entry.router));
  expect(withBinaryRefsJson(json, refs).toString('utf8')).toBe(before);
}

const market = (id: string, extra: Record<string, unknown> = {}): Market =>
  withBinaryRefs({
    marketId: id,
    eventId: 'e1',
    title: `Market ${id}`,
    outcomes: [
      { outcomeId: `${id}-y`, marketId: id, label: 'Yes', price: 0.4 },
      { outcomeId: `${id}-n`, marketId: id, label: 'No', price: 0.6 },
    ],
    volume24h: 10,
    sourceExchange: 'mock',
    ...extra,
  } as Market);
const event = (markets: Market[], extra: Record<string, unknown> = {}): Event =>
  ({ id: 'e1', title: 'T', slug: 's', markets, volume24h: 1, url: 'u', ...extra }) as Event;

describe('an event serialised once, as stored and as the Router sends it', () => {
  test('the sample catalog', () => {
    for (const [venue, events] of Object.entries(sampleCatalog())) for (const item of events) expectExact(item, venue);
  });

  test.each([
    ['markets without eventId or sourceExchange', event([market('m1', { eventId: undefined, sourceExchange: undefined })])],
    ['an outcome holding the market’s eventId member too', event([market('m1', { outcomes: [{ outcomeId: 'o', eventId: 'e1', label: 'Yes' }] })])],
    ['an outcome holding the sourceExchange member too', event([market('m1', { outcomes: [{ outcomeId: 'o', sourceExchange: 'mock' }] })])],
    ['a non-string eventId', event([market('m1', { eventId: 7 })])],
    ['references left in the middle of a market', event([{ yes: { outcomeId: 'x' }, ...market('m1') } as Market])],
    ['metadata holding a markets member like the placeholder', event([market('m1')], { sourceMetadata: { markets: 0, nested: { markets: 0 } } })],
    ['a markets member like the placeholder inside a market', event([market('m1', { extra: { markets: 0 } })])],
    ['no markets', event([])],
    ['text needing escapes', event([market('m1', { eventId: 'q"\\é🚀', title: '"eventId":"e1"' })], { title: 'Quotes " and \\ 日本' })],
  ])('%s', (_name, item) => {
    expectExact(item);
  });

  test('arbitrary events', () => {
    const text = fc.constantFrom('', 'e1', 'mock', 'x"y', '"eventId":"e1"', 'é');
    const arbitraryMarket = fc
      .record(
        {
          marketId: text,
          eventId: fc.oneof(text, fc.integer()),
          title: text,
          outcomes: fc.array(fc.record({ outcomeId: text, label: text, eventId: text, sourceExchange: text }, { requiredKeys: ['outcomeId', 'label'] }), {
            maxLength: 3,
          }),
          volume24h: fc.double({ noNaN: true, noDefaultInfinity: true }),
          sourceExchange: text,
          extra: fc.jsonValue({ maxDepth: 2 }),
          refs: fc.boolean(),
        },
        { requiredKeys: ['marketId', 'title', 'outcomes', 'volume24h', 'refs'] },
      )
      .map(({ refs, ...item }) => (refs ? withBinaryRefs(item as unknown as Market) : (item as unknown as Market)));
    const arbitrary = arbitraryEvent(text, arbitraryMarket, fc.oneof(fc.constant(0), fc.jsonValue({ maxDepth: 2 })));
    fc.assert(
      fc.property(arbitrary, (item) => expectExact(item as unknown as Event)),
      { numRuns: 400 },
    );
  });

  test('arbitrary text and numbers, written as JSON.stringify writes them', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom('', 'e1', 'mock', '\ud800', 'a\udc00b', '\udbff\udfff', 'q"\\\u0000\n\u001f\u007f\u2028é日本🚀'),
    );
    const number = fc.oneof(
      fc.double(),
      fc.integer().map((whole) => whole / 100),
      fc.integer({ min: -1e9, max: 1e9 }).map((whole) => whole / 1000),
      fc.nat(12).chain((decimals) => fc.integer({ min: 0, max: 2 ** 40 }).map((whole) => whole / 10 ** decimals)),
      fc.constantFrom(-0, 0, 1e21, 1e-7, 1e-6, 5e-324, 0.1 + 0.2, 2 ** 50, 2 ** 53, 1e15, 999999999999999.9, 123456789012345.6, NaN, Infinity, -Infinity),
    );
    const outcome = fc.record({ outcomeId: text, label: text, price: number, priceChange24h: number }, { requiredKeys: ['outcomeId', 'label'] });
    const arbitraryMarket = fc
      .record(
        {
          marketId: text,
          eventId: text,
          title: text,
          outcomes: fc.array(outcome, { maxLength: 3 }),
          volume24h: number,
          liquidity: number,
          tags: fc.array(text, { maxLength: 2 }),
          sourceExchange: text,
          refs: fc.boolean(),
        },
        { requiredKeys: ['marketId', 'title', 'outcomes', 'volume24h', 'refs'] },
      )
      .map(({ refs, ...item }) => (refs ? withBinaryRefs(item as unknown as Market) : (item as unknown as Market)));
    const arbitrary = arbitraryEvent(text, arbitraryMarket, fc.oneof(number, text, fc.jsonValue({ maxDepth: 2 })));
    fc.assert(
      fc.property(arbitrary, (item) => expectExact(item as unknown as Event)),
      { numRuns: 1000 },
    );
  });
});
