import { decodeCursor } from '@predgate/core';
import type { EventFetchParams, SortOrder, StatusFilter } from '@predgate/core';
import type { Query } from '../api/client.js';
import { venueId } from '../venue.js';

/**
 * Unified list parameters in Gamma's terms. Resolved markets usually keep
 * `active: true`, so `closed` asks for `closed=true` alone, and `all` sends
 * no status at all.
 */
export function statusQuery(status: StatusFilter): Query {
  if (status === 'all') return {};
  if (status === 'active') return { active: true, closed: false };
  return { closed: true };
}

/**
 * Gamma's field names for the unified sort orders, always largest (or newest)
 * first. Listings default to 24h volume, the order every venue's lists (and
 * the catalog) share; keyword searches keep the venue's relevance order unless asked.
 */
const orderFields: Record<SortOrder, string> = { volume: 'volume24hr', liquidity: 'liquidity', newest: 'startDate' };

export function sortQuery(sort: SortOrder | undefined, key: 'order' | 'sort' = 'order'): Query {
  return sort ? { [key]: orderFields[sort], ascending: false } : {};
}

/** Tag slugs are the lower-cased, hyphenated labels (`Fed Rates` → `fed-rates`). */
export function tagSlug(label: string): string {
  return label.trim().toLowerCase().replace(/\s+/g, '-');
}

/** Where a page starts and how long it is: a cursor (core's opaque offset cursor) wins over `offset`. */
export function pageWindow(params: { limit?: number; offset?: number; cursor?: string }, defaultLimit: number): { start: number; limit: number } {
  const start = params.cursor !== undefined ? decodeCursor(params.cursor, venueId).offset : (params.offset ?? 0);
  return { start, limit: params.limit ?? defaultLimit };
}

/**
 * Reads `limit` items from `start` through a limit/offset endpoint that
 * answers at most `maxPage` per request, stopping at the first short page.
 */
export async function readPages<T>(
  window: { start: number; limit: number },
  maxPage: number,
  fetchPage: (query: { limit: number; offset: number }) => Promise<T[]>,
): Promise<T[]> {
  const items: T[] = [];
  let offset = window.start;
  while (items.length < window.limit) {
    const size = Math.min(maxPage, window.limit - items.length);
    const page = await fetchPage({ limit: size, offset });
    items.push(...page.slice(0, size));
    if (page.length < size) break;
    offset += size;
  }
  return items;
}

/**
 * The venue's search is fuzzy; a hit must contain every word of the query in
 * the chosen scope (`title` by default).
 */
export function textMatches(titles: string[], description: string, params: Pick<EventFetchParams, 'query' | 'searchIn'>): boolean {
  const scope = params.searchIn ?? 'title';
  const inTitles = titles.join('\n');
  const haystack = (scope === 'title' ? inTitles : scope === 'description' ? description : `${inTitles}\n${description}`).toLowerCase();
  return (params.query ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}
