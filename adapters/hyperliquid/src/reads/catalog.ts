import { collectingDrift, eventListPredicate, inCatalogOrder, marketListPredicate, offsetWindow } from '@predgate/core';
import type { Event, EventFetchParams, Market, MarketFetchParams, StatusFilter } from '@predgate/core';
import { venueId } from '../venue.js';
import type { HyperliquidContext } from '../context.js';
import { outcomeOfMarketId, sideOfAssetId } from '../ids.js';
import { normalizeCatalog, normalizeMarket, settledMarket } from '../normalize/catalog.js';

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
  // Outcomes left out as unreadable are known, so a lookup of one is answered with its drift error, not a settlement.
  const { value: events, reports } = await collectingDrift(() => catalog(ctx));
  const markets = events
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
  const page = pageOf(
    inCatalogOrder(markets, (market) => market.marketId),
    params,
  );
  const unreadable = reports.some((report) => String(report.detail?.item) === params.marketId);
  return params.marketId === undefined || unreadable ? page : withSettlement(ctx, params.marketId, page, params);
}

/**
 * A lookup by market id says how a settled market settled (`settledOutcome`,
 * one request, made for lookups only: a list of settled markets would cost
 * one each). A settled outcome the catalog still lists gets its prices; one
 * the venue has dropped from `outcomeMeta` is answered from the settlement's
 * own spec instead of as unknown.
 */
async function withSettlement(ctx: HyperliquidContext, marketId: string, page: Market[], params: MarketFetchParams): Promise<Market[]> {
  const outcome = outcomeOfMarketId(marketId);
  const listed = page.find((market) => market.marketId === marketId);
  const wanted = params.status ?? 'all';
  if (outcome === undefined || (listed ? listed.status !== 'resolved' : page.length > 0 || wanted === 'active')) return page;
  const settled = await ctx.api.settledOutcome(outcome);
  if (!settled || settled.spec.outcome !== outcome) return page;
  if (listed) return page.map((market) => (market === listed ? settledMarket(market, settled.settleFraction) : market));
  const market = settledMarket(normalizeMarket(settled.spec, undefined, {}, true), settled.settleFraction);
  const keep = marketListPredicate(params);
  return (params.eventId === undefined || market.eventId === params.eventId) && (!keep || keep(market)) ? [market] : [];
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
