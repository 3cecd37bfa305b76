import type { Event, EventFetchParams, Market, MarketFetchParams, SortOrder } from '@predgate/core';
import { timeMs } from '../normalize/numbers.js';

/** Whether a request filters on tags, which Kalshi keeps on series rather than events. */
export function wantsTags(params: EventFetchParams | MarketFetchParams): boolean {
  return Boolean(params.tags?.length || params.filter?.tags?.length);
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
