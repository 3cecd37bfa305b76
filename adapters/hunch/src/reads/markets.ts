import { collectCursorPages, eventListPredicate, marketListPredicate, unlessMissing } from '@predgate/core';
import type { EventFetchParams, Market, MarketFetchParams } from '@predgate/core';
import type { HunchContext } from '../context.js';
import { splitOutcomeId } from '../ids.js';
import { eventOf, normalizeMarket } from '../normalize/markets.js';

const pageSize = 200;
/** The venue lists every market it has in a few pages; this bounds a list call. */
const maxPages = 10;
const defaultLimit = 20;

export async function fetchEvents(ctx: HunchContext, params: EventFetchParams = {}) {
  const predicate = eventListPredicate(params);
  const markets = await selectMarkets(ctx, params, predicate ? (market) => predicate(eventOf(market)) : undefined);
  return markets.map(eventOf);
}

export async function fetchMarkets(ctx: HunchContext, params: MarketFetchParams = {}) {
  return selectMarkets(ctx, params, marketListPredicate(params));
}

export async function fetchEventMetadata(ctx: HunchContext, eventTicker: string) {
  const research = await ctx.api.research(eventTicker);
  return { resolutionRules: research.resolutionRules ?? null };
}

/** Every market the venue lists for a status, in the venue's order. */
function listAll(ctx: HunchContext, status: 'open' | 'all') {
  return collectCursorPages(
    (cursor) => ctx.api.markets({ status, limit: pageSize, ...(cursor ? { cursor } : {}) }).then((page) => ({ items: page.markets, next: page.nextCursor })),
    { maxPages },
  );
}

/** One market by id or slug, with live odds from its research (N-way rungs are priced only there). */
async function marketOf(ctx: HunchContext, idOrSlug: string): Promise<Market> {
  const raw = await ctx.api.market(idOrSlug);
  if (!raw.outcomes) return normalizeMarket(raw);
  return normalizeMarket(raw, await ctx.api.research(raw.id));
}

async function selectMarkets(
  ctx: HunchContext,
  params: EventFetchParams | MarketFetchParams,
  keep: ((market: Market) => boolean) | undefined,
): Promise<Market[]> {
  const named = namedMarket(params);
  if (named !== undefined) {
    const market = await unlessMissing(marketOf(ctx, named));
    return market && (!keep || keep(market)) ? [market] : [];
  }
  const status = params.status ?? 'active';
  const markets = (await listAll(ctx, status === 'active' ? 'open' : 'all')).map((raw) => normalizeMarket(raw));
  const wanted = markets.filter((market) => (status === 'all' || market.status === status) && (!keep || keep(market)));
  const offset = params.offset ?? 0;
  return sorted(wanted, params.sort).slice(offset, offset + (params.limit ?? defaultLimit));
}

/** A list call naming one market (by event, market, outcome or slug) is a lookup. */
function namedMarket(params: EventFetchParams | MarketFetchParams): string | undefined {
  const market = params as MarketFetchParams;
  if (market.outcomeId !== undefined) return splitOutcomeId(market.outcomeId)?.marketId ?? market.outcomeId;
  return market.marketId ?? params.eventId ?? params.slug;
}

/** The venue has no sort: the whole list is ordered here, 24h volume first by default, as the catalog orders it. */
function sorted(markets: Market[], sort: EventFetchParams['sort']): Market[] {
  if (sort === 'newest') return markets;
  const key = sort === 'liquidity' ? (market: Market) => market.liquidity : (market: Market) => market.volume24h;
  return [...markets].sort((a, b) => key(b) - key(a));
}
