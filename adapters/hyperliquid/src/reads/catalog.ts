import { eventListPredicate, inCatalogOrder, marketListPredicate, offsetWindow } from '@predgate/core';
import type { Event, EventFetchParams, Market, MarketFetchParams, StatusFilter } from '@predgate/core';
import { venueId } from '../context.js';
import type { HyperliquidContext } from '../context.js';
import { sideOfAssetId } from '../ids.js';
import { normalizeCatalog } from '../normalize/catalog.js';

/*
 * Catalog reads filter one `outcomeMeta` answer (the venue has no server-side
 * search, status or paging) priced by one `allMids`.
 */

const defaultPageSize = 100;

async function catalog(ctx: HyperliquidContext): Promise<Event[]> {
  const [meta, mids] = await Promise.all([ctx.api.outcomeMeta(), ctx.api.allMids()]);
  return normalizeCatalog(meta, mids);
}

export async function fetchEvents(ctx: HyperliquidContext, params: EventFetchParams = {}): Promise<Event[]> {
  // Series are not a HIP-4 notion: no event belongs to one.
  if (params.series !== undefined) return [];
  const byKey = params.eventId !== undefined || params.slug !== undefined;
  const status = params.status ?? (byKey ? 'all' : 'active');
  const keep = eventListPredicate(params);
  const events = (await catalog(ctx)).filter(
    (event) =>
      (params.eventId === undefined || event.id === params.eventId) &&
      (params.slug === undefined || event.slug === params.slug) &&
      hasStatus(event.markets, status) &&
      (!keep || keep(event)),
  );
  // The venue publishes no 24-hour volume: every sort is the catalog's order, by id.
  return pageOf(
    inCatalogOrder(events, (event) => event.id),
    params,
  );
}

export async function fetchMarkets(ctx: HyperliquidContext, params: MarketFetchParams = {}): Promise<Market[]> {
  if (params.series !== undefined) return [];
  const byKey = params.marketId !== undefined || params.slug !== undefined || params.outcomeId !== undefined || params.eventId !== undefined;
  const status = params.status ?? (byKey ? 'all' : 'active');
  const wanted = params.outcomeId === undefined ? undefined : sideOfAssetId(params.outcomeId);
  const keep = marketListPredicate(params);
  const markets = (await catalog(ctx))
    .flatMap((event) => event.markets)
    .filter(
      (market) =>
        (params.marketId === undefined || market.marketId === params.marketId) &&
        (params.slug === undefined || market.slug === params.slug) &&
        (params.outcomeId === undefined || market.marketId === String(wanted?.outcome)) &&
        (params.eventId === undefined || market.eventId === params.eventId) &&
        hasStatus([market], status) &&
        (!keep || keep(market)),
    );
  return pageOf(
    inCatalogOrder(markets, (market) => market.marketId),
    params,
  );
}

function hasStatus(markets: readonly Market[], status: StatusFilter): boolean {
  if (status === 'all') return true;
  const trading = markets.some((market) => market.status === 'active');
  return status === 'active' ? trading : !trading;
}

function pageOf<T>(items: T[], params: { limit?: number; offset?: number; cursor?: string }): T[] {
  const { start, end } = offsetWindow(items.length, params, defaultPageSize, venueId);
  return items.slice(start, end);
}
