import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { declareCategoryWords, normalizeCategory } from './categories.js';
import { catalogEntry, catalogEventId, catalogNamespace } from './document.js';
import { fixtureEvent, now } from '../test/fixtures.js';

/** UUID v5 computed by hand (RFC 9562: SHA-1 of namespace bytes + name, version and variant bits set). */
function uuidV5ByHand(name: string, namespace: string): string {
  const bytes = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

describe('catalog identifiers', () => {
  test('an event UUID is v5 of "venue:venueEventId" in the catalog namespace', () => {
    expect(catalogEventId('polymarket', '30829')).toBe(uuidV5ByHand('polymarket:30829', catalogNamespace));
    expect(catalogEventId('polymarket', '30829')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('catalog entries', () => {
  const event = fixtureEvent('alpha', 'e1', { title: 'Will Bitcoin Rally?', category: 'Economy', tags: ['BTC'], resolvesInDays: 3 });
  const entry = catalogEntry('alpha', event);

  test('keep the venue event untouched for the pass-through', () => {
    expect(entry.source).toBe(event);
  });

  test('give the Router its view: UUID ids, sourceExchange everywhere, normalised category, no convenience references', () => {
    expect(entry.router).toMatchObject({ id: entry.id, sourceExchange: 'alpha', category: 'Economics', tags: ['BTC'] });
    expect(entry.router.sourceMetadata).toEqual({ venueEventId: 'e1', venueCategory: 'Economy' });
    for (const market of entry.router.markets) {
      expect(market.eventId).toBe(entry.id);
      expect(market.sourceExchange).toBe('alpha');
      expect(market).not.toHaveProperty('yes');
      expect(market).not.toHaveProperty('down');
      expect(market.outcomes).toHaveLength(2);
    }
    expect(Object.keys(entry.router)).toEqual([
      'id',
      'title',
      'description',
      'slug',
      'markets',
      'volume24h',
      'url',
      'category',
      'tags',
      'sourceMetadata',
      'sourceExchange',
    ]);
  });

  test('index what the stores filter on', () => {
    expect(entry).toMatchObject({
      venue: 'alpha',
      venueEventId: 'e1',
      search: 'will bitcoin rally?\nevent-e1',
      venueCategory: 'economy',
      tags: ['btc'],
      closed: false,
      closesAt: now + 3 * 86_400_000,
      marketIds: ['e1-m0', 'e1-m1'],
      outcomeIds: ['e1-m0-yes', 'e1-m0-no', 'e1-m1-yes', 'e1-m1-no'],
      marketSlugs: ['e1-market-0', 'e1-market-1'],
    });
    expect(catalogEntry('alpha', fixtureEvent('alpha', 'e2', { closed: true })).closed).toBe(true);
  });
});

describe('normalised categories', () => {
  // Words as the adapters declare them (Kalshi's, Polymarket's, the mock's), learned the way the catalog learns them.
  declareCategoryWords('kalshi', { Politics: ['elections'], Economics: ['financials'], Science: ['climate and weather'], Sports: ['nba'] });
  declareCategoryWords('polymarket', { Politics: ['geopolitics'], Science: ['tech'], Culture: ['pop culture', 'entertainment'] });
  declareCategoryWords('mock', { Economics: ['economy'] });

  test.each([
    ['Politics', 'Politics'],
    ['elections', 'Politics'],
    ['Geopolitics', 'Politics'],
    ['Sports', 'Sports'],
    ['NBA', 'Sports'],
    ['Crypto', 'Crypto'],
    ['Economy', 'Economics'],
    ['Financials', 'Economics'],
    ['Climate and Weather', 'Science'],
    ['Tech', 'Science'],
    ['Pop Culture', 'Culture'],
    ['Entertainment', 'Culture'],
    ['Transportation', 'Other'],
    [undefined, 'Other'],
  ])('%s is %s', (venueCategory, normalized) => {
    expect(normalizeCategory(venueCategory)).toBe(normalized);
  });

  test('a new venue’s declared words file its events, with no list in the catalog to edit', () => {
    const event = fixtureEvent('curling-venue', 'c1', { category: 'Curling' });
    expect(catalogEntry('curling-venue', event).category).toBe('Other');
    declareCategoryWords('curling-venue', { Sports: ['curling'] });
    expect(catalogEntry('curling-venue', event)).toMatchObject({ category: 'Sports', venueCategory: 'curling' });
    expect(catalogEntry('curling-venue', event).router.category).toBe('Sports');
    // Declaring again replaces the venue's words: a word it drops is no longer known.
    declareCategoryWords('curling-venue', {});
    expect(catalogEntry('curling-venue', event).category).toBe('Other');
  });
});
