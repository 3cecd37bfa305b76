import type { MarketKeys } from '../document.js';
import type { EntryKeys } from './stored-entry.js';

type MarketTuple = [
  marketId: string,
  slug: string | null,
  title: string,
  trading: boolean,
  category: string | null,
  normalizedCategory: MarketKeys['normalizedCategory'],
  tags: string[],
  outcomeIds: string[],
  volume24h: number,
];

type KeysTuple = [
  id: string,
  slug: string,
  search: string,
  category: EntryKeys['category'],
  venueCategory: string | null,
  tags: string[],
  closed: boolean,
  closesAt: number | null,
  volume24h: number,
  markets: MarketTuple[],
];

/**
 * An entry's indexed fields as compact JSON, written beside its event in the
 * snapshot so a restart builds the entry without parsing the event (parsing
 * is most of what a start from disk would otherwise cost). Positional arrays:
 * a fraction of the size of the event, and quick to parse.
 */
export function encodeKeys(keys: EntryKeys): string {
  const tuple: KeysTuple = [
    keys.id,
    keys.slug,
    keys.search,
    keys.category,
    keys.venueCategory,
    keys.tags,
    keys.closed,
    keys.closesAt,
    keys.volume24h,
    keys.marketKeys.map((market) => [
      market.marketId,
      market.slug,
      market.title,
      market.trading,
      market.category,
      market.normalizedCategory,
      market.tags,
      market.outcomeIds,
      market.volume24h,
    ]),
  ];
  return JSON.stringify(tuple);
}

/** The keys `encodeKeys` wrote, as parsed with the rest of their snapshot line. */
export function decodeKeys(venue: string, venueEventId: string, encoded: unknown): EntryKeys {
  const [id, slug, search, category, venueCategory, tags, closed, closesAt, volume24h, markets] = encoded as KeysTuple;
  return {
    id,
    venue,
    venueEventId,
    slug,
    search,
    category,
    venueCategory,
    tags,
    closed,
    closesAt,
    volume24h,
    marketKeys: markets.map(([marketId, marketSlug, title, trading, marketCategory, normalizedCategory, marketTags, outcomeIds, marketVolume]) => ({
      marketId,
      slug: marketSlug,
      title,
      trading,
      category: marketCategory,
      normalizedCategory,
      tags: marketTags,
      outcomeIds,
      volume24h: marketVolume,
    })),
  };
}
