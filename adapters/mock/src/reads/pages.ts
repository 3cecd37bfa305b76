import { offsetWindow } from '@predgate/core';
import type { OrderHistoryParams, Page } from '@predgate/core';
import { defaultPageSize, venueId } from '../venue.js';

/** The page a `limit`/`offset`/`cursor` request selects from a list already filtered and sorted. */
export function pageOf<T>(items: T[], params: { limit?: number; offset?: number; cursor?: string }): Page<T> {
  const { start, end, nextCursor } = offsetWindow(items.length, params, defaultPageSize, venueId);
  return { data: items.slice(start, end), total: items.length, ...(nextCursor ? { nextCursor } : {}) };
}

/** An account history (orders, fills) narrowed to a market and a time window, then paged. */
export function history<T extends { marketId?: string; timestamp: number }>(items: T[], params: OrderHistoryParams): T[] {
  const since = params.since?.getTime() ?? -Infinity;
  const until = params.until?.getTime() ?? Infinity;
  const selected = items.filter(
    (item) => (params.marketId === undefined || item.marketId === params.marketId) && item.timestamp >= since && item.timestamp <= until,
  );
  return pageOf(selected, params).data;
}
