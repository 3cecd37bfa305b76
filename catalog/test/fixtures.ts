import { withBinaryRefs } from '@predgate/core';
import type { Event, Market } from '@predgate/core';
import fc from 'fast-check';
import { declareCategoryWords } from '../src/categories.js';
import { catalogEntry } from '../src/document.js';
import type { CatalogEntry } from '../src/document.js';
import type { SweepRecord } from '../src/store.js';

export const now = Date.UTC(2026, 10, 22, 12);
const day = 86_400_000;

export interface FixtureOptions {
  title?: string;
  volume24h?: number;
  category?: string;
  tags?: string[];
  closed?: boolean;
  /** Days from `now` until the event's last market resolves; negative is in the past. */
  resolvesInDays?: number;
  markets?: number;
}

/** A venue event shaped as adapters return them, with `markets` binary markets. */
export function fixtureEvent(venue: string, id: string, options: FixtureOptions = {}): Event {
  const volume24h = options.volume24h ?? 100;
  const count = options.markets ?? 2;
  const markets: Market[] = Array.from({ length: count }, (_, index) =>
    withBinaryRefs<Market>({
      marketId: `${id}-m${index}`,
      eventId: id,
      title: `${options.title ?? `Event ${id}`} — market ${index}`,
      description: `Rules of ${id} market ${index}`,
      slug: `${id}-market-${index}`,
      outcomes: [
        { outcomeId: `${id}-m${index}-yes`, marketId: `${id}-m${index}`, label: 'Yes', price: 0.4 },
        { outcomeId: `${id}-m${index}-no`, marketId: `${id}-m${index}`, label: 'No', price: 0.6 },
      ],
      volume24h: volume24h / count,
      liquidity: 10,
      url: `https://${venue}.test/${id}`,
      resolutionDate: new Date(now + (options.resolvesInDays ?? 30) * day).toISOString(),
      ...(options.category ? { category: options.category } : {}),
      ...(options.tags ? { tags: options.tags } : {}),
      status: options.closed ? 'closed' : 'active',
      sourceExchange: venue,
    }),
  );
  return {
    id,
    title: options.title ?? `Event ${id}`,
    description: `About ${id}`,
    slug: `event-${id}`,
    markets,
    volume24h,
    url: `https://${venue}.test/${id}`,
    ...(options.category ? { category: options.category } : {}),
    ...(options.tags ? { tags: options.tags } : {}),
    sourceExchange: venue,
  };
}

export function entries(venue: string, events: Event[]): CatalogEntry[] {
  return events.map((event) => catalogEntry(venue, event));
}

export function sweepRecord(venue: string, sweepId: string, events: Event[]): SweepRecord {
  return {
    venue,
    sweepId,
    startedAt: now - 5_000,
    finishedAt: now,
    events: events.length,
    markets: events.reduce((sum, event) => sum + event.markets.length, 0),
    outcomes: events.reduce((sum, event) => sum + event.markets.reduce((count, market) => count + market.outcomes.length, 0), 0),
  };
}

/** The sample venues' own category words, as their adapters would declare them. */
declareCategoryWords('alpha', { Economics: ['economy'], Politics: ['elections'] });
declareCategoryWords('beta', { Culture: ['pop culture'] });
declareCategoryWords('gamma', { Science: ['climate and weather'] });

/** Three venues, with ties in 24h volume, closed and expired events, categories and tags. */
export function sampleCatalog(): Record<string, Event[]> {
  return {
    alpha: [
      fixtureEvent('alpha', 'a1', { title: 'Will Bitcoin close above 100k?', volume24h: 900, category: 'Crypto', tags: ['bitcoin'] }),
      fixtureEvent('alpha', 'a2', { title: 'Fed decision in December', volume24h: 500, category: 'Economy', tags: ['fed', 'rates'] }),
      fixtureEvent('alpha', 'a3', { title: 'Harbor City election', volume24h: 500, category: 'Elections' }),
      fixtureEvent('alpha', 'a4', { title: 'Old resolved bitcoin question', volume24h: 0, category: 'Crypto', closed: true, resolvesInDays: -10 }),
      fixtureEvent('alpha', 'a5', { title: 'Expired but not closed', volume24h: 50, category: 'Crypto', resolvesInDays: -1 }),
    ],
    beta: [
      fixtureEvent('beta', 'b1', { title: 'NBA finals winner', volume24h: 700, category: 'Sports', tags: ['nba'], markets: 3 }),
      fixtureEvent('beta', 'b2', { title: 'Bitcoin up or down today', volume24h: 500, category: 'crypto', tags: ['bitcoin', 'daily'] }),
      fixtureEvent('beta', 'b3', { title: 'Oscars best picture', volume24h: 20, category: 'Pop Culture' }),
    ],
    gamma: [
      fixtureEvent('gamma', 'g1', { title: 'Will it rain in Paris?', volume24h: 0, category: 'Climate and Weather' }),
      fixtureEvent('gamma', 'g2', { title: 'Mayor race', volume24h: 0 }),
    ],
  };
}

/**
 * Arbitrary events for the Router view's property tests: every member the
 * view reads, optional where the model allows, around the given markets and
 * texts, with metadata that may hold the keys the view sets.
 */
export function arbitraryEvent(text: fc.Arbitrary<string>, market: fc.Arbitrary<unknown>, metadataValue: fc.Arbitrary<unknown> = fc.jsonValue()) {
  return fc.record(
    {
      id: text,
      title: text,
      description: text,
      slug: text,
      markets: fc.array(market, { maxLength: 4 }),
      volume24h: fc.double({ noNaN: true, noDefaultInfinity: true }),
      volume: fc.double({ noNaN: true, noDefaultInfinity: true }),
      url: text,
      image: text,
      category: fc.constantFrom('Politics', 'Economy', 'sports', '', 'Weird "cat"'),
      tags: fc.array(text, { maxLength: 3 }),
      sourceMetadata: fc.dictionary(fc.constantFrom('venueEventId', 'venueCategory', 'markets', 'a', 'b'), metadataValue),
      sourceExchange: text,
    },
    { requiredKeys: ['id', 'title', 'slug', 'markets', 'volume24h', 'url'] },
  );
}
