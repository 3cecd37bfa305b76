import { describe, expect, test } from 'vitest';
import type { Event, Market } from '../model/index.js';
import { withBinaryRefs } from './binary-outcomes.js';
import { eventListPredicate, filterEvents, filterMarkets, marketListPredicate } from './filters.js';

function market(id: string, overrides: Partial<Market> = {}, yesPrice = 0.5): Market {
  return withBinaryRefs({
    marketId: id,
    title: `Market ${id}`,
    description: 'plain rules',
    outcomes: [
      { outcomeId: `${id}-y`, label: 'Yes', price: yesPrice, priceChange24h: 0.02 },
      { outcomeId: `${id}-n`, label: 'No', price: 1 - yesPrice, priceChange24h: -0.02 },
    ],
    volume24h: 100,
    liquidity: 50,
    url: '',
    ...overrides,
  });
}

const markets = [
  market(
    'a',
    { title: 'Will the Fed cut rates?', category: 'Economics', tags: ['Fed', 'rates'], volume24h: 5_000, resolutionDate: '2026-12-10T00:00:00Z' },
    0.8,
  ),
  market(
    'b',
    { title: 'Bitcoin above 100k?', description: 'Uses the Fed price feed', category: 'Crypto', tags: ['bitcoin'], volume24h: 50, liquidity: 10_000 },
    0.2,
  ),
  market('c', {
    title: 'Who wins?',
    category: 'Sports',
    volume: 9_000,
    resolutionDate: '2027-06-01T00:00:00Z',
    outcomes: [
      { outcomeId: 'c1', label: 'Red', price: 0.3 },
      { outcomeId: 'c2', label: 'Blue', price: 0.3 },
      { outcomeId: 'c3', label: 'Green', price: 0.4 },
    ],
  }),
];

const ids = (items: Market[]) => items.map((item) => item.marketId);

describe('filterMarkets', () => {
  test.each([
    ['a string searches titles without regard to case', 'fed', ['a']],
    ['text in the description', { text: 'fed', searchIn: ['description'] }, ['b']],
    ['text in titles or descriptions', { text: 'fed', searchIn: ['title', 'description'] }, ['a', 'b']],
    ['text in outcome labels', { text: 'green', searchIn: ['outcomes'] }, ['c']],
    ['text in tags', { text: 'bitc', searchIn: ['tags'] }, ['b']],
    ['a category, without regard to case', { category: 'crypto' }, ['b']],
    ['any of the tags', { tags: ['RATES', 'nothing'] }, ['a']],
    ['a 24h volume range, bounds included', { volume24h: { min: 100, max: 5_000 } }, ['a', 'c']],
    ['a liquidity floor', { liquidity: { min: 1_000 } }, ['b']],
    ['a volume range, missing volume counting as 0', { volume: { max: 0 } }, ['a', 'b']],
    ['a resolution window (markets without a date pass)', { resolutionDate: { before: new Date('2027-01-01') } }, ['a', 'b']],
    ['a price range on the yes outcome (multi-outcome markets have none)', { price: { outcome: 'yes', min: 0.5 } }, ['a']],
    ['a price range on the no outcome', { price: { outcome: 'no', min: 0.5 } }, ['b']],
    ['a 24h price change range', { priceChange24h: { outcome: 'up', min: 0.01 } }, ['a', 'b']],
    ['several criteria at once', { text: 'fed', searchIn: ['title', 'description'], category: 'Crypto' }, ['b']],
    ['an empty criteria object', {}, ['a', 'b', 'c']],
  ])('%s', (_title, criteria, expected) => {
    expect(ids(filterMarkets(markets, criteria as never))).toEqual(expected);
  });

  test('a predicate', () => {
    expect(ids(filterMarkets(markets, (item) => item.outcomes.length > 2))).toEqual(['c']);
  });
});

describe('filterEvents', () => {
  const event = (id: string, title: string, items: Market[], extra: Partial<Event> = {}): Event => ({
    id,
    title,
    description: `${title} description`,
    slug: id,
    markets: items,
    volume24h: items.reduce((sum, item) => sum + item.volume24h, 0),
    url: '',
    ...extra,
  });
  const events = [
    event('e1', 'Fed decision', [markets[0]!, markets[1]!], { category: 'Economics', tags: ['fed'] }),
    event('e2', 'Final match', [markets[2]!], { category: 'Sports', tags: ['football'], volume: 20 }),
  ];

  test.each([
    ['a string', 'MATCH', ['e2']],
    ['text in the description', { text: 'decision description', searchIn: ['description'] }, ['e1']],
    ['a category', { category: 'sports' }, ['e2']],
    ['tags', { tags: ['fed'] }, ['e1']],
    ['a market count', { marketCount: { min: 2 } }, ['e1']],
    ['total volume of the markets', { totalVolume: { max: 1_000 } }, ['e2']],
    ['event volume', { volume: { min: 1 } }, ['e2']],
  ])('%s', (_title, criteria, expected) => {
    expect(filterEvents(events, criteria as never).map((item) => item.id)).toEqual(expected);
  });

  test("a list call's query, category, tags and filter, all of them at once", () => {
    const listed = (params: Parameters<typeof eventListPredicate>[0]) => {
      const predicate = eventListPredicate(params);
      return predicate ? events.filter(predicate).map((item) => item.id) : 'no predicate';
    };
    expect(listed({})).toBe('no predicate');
    expect(listed({ query: '', tags: [] })).toBe('no predicate');
    expect(listed({ query: 'decision' })).toEqual(['e1']);
    expect(listed({ query: 'decision description' })).toEqual([]);
    expect(listed({ query: 'decision description', searchIn: 'description' })).toEqual(['e1']);
    expect(listed({ query: 'final', searchIn: 'both', category: 'SPORTS', tags: ['Football'] })).toEqual(['e2']);
    expect(listed({ category: 'sports', filter: { marketCount: { min: 2 } } })).toEqual([]);
  });
});

describe('marketListPredicate', () => {
  test('applies the same parameters to markets', () => {
    const predicate = marketListPredicate({ query: 'fed', searchIn: 'both', tags: ['bitcoin'], filter: { liquidity: { min: 1_000 } } });
    expect(ids(markets.filter(predicate!))).toEqual(['b']);
  });
});
