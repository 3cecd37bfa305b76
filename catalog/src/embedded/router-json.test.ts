import type { Event } from '@predgate/core';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { arbitraryEvent, sampleCatalog } from '../../test/fixtures.js';
import { catalogEntry } from '../document.js';
import { routerJson } from './router-json.js';

/** The spliced view must be exactly what serialising the document's Router view of the stored bytes gives. */
function expectSameAsRouterView(event: Event, venue = 'mock'): void {
  const stored = JSON.stringify(event);
  const entry = catalogEntry(venue, JSON.parse(stored) as Event);
  const spliced = routerJson(Buffer.from(stored), { id: entry.id, venue, category: entry.category });
  expect(spliced.toString('utf8')).toBe(JSON.stringify(entry.router));
}

const market = (id: string, extra: Record<string, unknown> = {}) => ({
  marketId: id,
  eventId: 'e1',
  title: `Market ${id}`,
  outcomes: [
    { outcomeId: `${id}-y`, marketId: id, label: 'Yes', price: 0.4 },
    { outcomeId: `${id}-n`, marketId: id, label: 'No', price: 0.6 },
  ],
  volume24h: 10,
  ...extra,
});

describe('the Router view spliced from venue bytes', () => {
  test('equals the serialised Router view for the sample catalog', () => {
    for (const [venue, events] of Object.entries(sampleCatalog())) for (const event of events) expectSameAsRouterView(event, venue);
  });

  test.each([
    ['no category, tags, image, volume or metadata', { id: 'e1', title: 'T', slug: 's', markets: [market('m1')], volume24h: 0, url: 'u' }],
    ['an empty category', { id: 'e1', title: 'T', slug: 's', category: '', markets: [], volume24h: 0, url: 'u' }],
    [
      'metadata that already holds the keys the view sets',
      {
        id: 'e1',
        title: 'T',
        slug: 's',
        category: 'Economy',
        markets: [market('m1', { sourceExchange: 'elsewhere' })],
        volume24h: 1,
        url: 'u',
        sourceMetadata: { venueEventId: 'stale', venueCategory: 'stale', other: { nested: [1, '}'] } },
      },
    ],
    [
      'markets with every convenience reference, and without an eventId',
      {
        id: 'e1',
        title: 'Quotes " and \\ backslashes, é 🚀 日本',
        slug: 's',
        markets: [{ ...market('m1'), eventId: undefined, yes: { outcomeId: 'm1-y' }, no: { outcomeId: 'm1-n' }, up: {}, down: {} }],
        volume24h: 1.5e-7,
        url: 'u',
        extra: 'members the Router view leaves out',
      },
    ],
  ])('%s', (_name, event) => {
    expectSameAsRouterView(event as unknown as Event);
  });

  test('equals the serialised Router view for arbitrary events', () => {
    const text = fc.string({ maxLength: 12 });
    const arbitraryMarket = fc.record(
      {
        marketId: text,
        eventId: text,
        title: text,
        outcomes: fc.array(fc.record({ outcomeId: text, label: text, price: fc.double({ noNaN: true, noDefaultInfinity: true }) }), { maxLength: 3 }),
        volume24h: fc.double({ noNaN: true, noDefaultInfinity: true }),
        yes: fc.jsonValue(),
        sourceExchange: text,
        extra: fc.jsonValue(),
      },
      { requiredKeys: ['marketId', 'title', 'outcomes', 'volume24h'] },
    );
    const arbitrary = arbitraryEvent(text, arbitraryMarket);
    fc.assert(
      fc.property(arbitrary, (event) => expectSameAsRouterView(event as unknown as Event)),
      { numRuns: 500 },
    );
  });
});
