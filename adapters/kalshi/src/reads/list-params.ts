import { eventMatches, marketMatches } from '@predgate/core';
import type { Event, EventFetchParams, EventFilterCriteria, Market, MarketFetchParams, MarketFilterCriteria, SortOrder } from '@predgate/core';
import { timeMs } from '../normalize/numbers.js';

/**
 * The client-side part of a list request. Kalshi has no keyword search and
 * no category or tag filter on `/events`, so these run here on the
 * normalised objects; undefined when nothing filters.
 */
export function eventPredicate(params: EventFetchParams): ((event: Event) => boolean) | undefined {
  const criteria = criteriaOf(params, params.filter);
  return criteria.length === 0 ? undefined : (event) => criteria.every((each) => eventMatches(event, each));
}

export function marketPredicate(params: MarketFetchParams): ((market: Market) => boolean) | undefined {
  const criteria = criteriaOf(params, params.filter);
  return criteria.length === 0 ? undefined : (market) => criteria.every((each) => marketMatches(market, each));
}

/** Whether a request filters on tags, which Kalshi keeps on series rather than events. */
export function wantsTags(params: EventFetchParams | MarketFetchParams): boolean {
  return Boolean(params.tags?.length || params.filter?.tags?.length);
}

type Criteria = EventFilterCriteria & MarketFilterCriteria;

function criteriaOf(params: EventFetchParams | MarketFetchParams, filter: EventFilterCriteria | MarketFilterCriteria | undefined): Criteria[] {
  const criteria: Criteria[] = [];
  if (params.query) criteria.push({ text: params.query, searchIn: scopesOf(params.searchIn) });
  if (params.category !== undefined) criteria.push({ category: params.category });
  if (params.tags?.length) criteria.push({ tags: params.tags });
  if (filter && Object.keys(filter).length > 0) criteria.push(filter as Criteria);
  return criteria;
}

function scopesOf(searchIn: EventFetchParams['searchIn']): Array<'title' | 'description'> {
  if (searchIn === 'description') return ['description'];
  if (searchIn === 'both') return ['title', 'description'];
  return ['title'];
}

/** Client-side sort (Kalshi sorts nothing): by 24-hour volume, liquidity, or the latest market opening. */
export function sortItems<T extends Event | Market>(items: T[], sort: SortOrder | undefined): T[] {
  if (sort === undefined) return items;
  const key = sortKeys[sort] as (item: T) => number;
  return [...items].sort((a, b) => key(b) - key(a));
}

const sortKeys: Record<SortOrder, (item: Event | Market) => number> = {
  volume: (item) => item.volume24h,
  liquidity: (item) => ('liquidity' in item ? item.liquidity : item.markets.reduce((sum, market) => sum + market.liquidity, 0)),
  newest: (item) => ('markets' in item ? Math.max(0, ...item.markets.map(openedAt)) : openedAt(item)),
};

function openedAt(market: Market): number {
  return timeMs(market.sourceMetadata?.open_time) ?? 0;
}
