import { filterMarkets, pick, PredgateError } from '@predgate/core';
import type { Market, MarketFetchParams } from '@predgate/core';
import { gammaMaxPage } from '../config.js';
import type { PolymarketContext } from '../context.js';
import { isGammaId } from '../ids.js';
import { normalizeMarket } from '../normalize/markets.js';
import { venueId } from '../venue.js';
import { fetchEvents } from './events.js';
import { pageWindow, readPages, sortQuery, statusQuery, textMatches } from './list-params.js';
import type { MarketRecord } from './lookup.js';

/*
 * Markets from Gamma: by key (market id, condition id, slug, outcome token,
 * event id), as the markets of matching events when the call filters on what
 * only events carry, else a `/markets` listing.
 */

export async function fetchMarkets(ctx: PolymarketContext, params: MarketFetchParams = {}): Promise<Market[]> {
  const markets = await selectMarkets(ctx, params);
  return params.filter ? filterMarkets(markets, params.filter) : markets;
}

/** One market by `marketId` (Gamma id or condition id), `slug` or `outcomeId`; else the first of the listing. */
export async function fetchMarket(ctx: PolymarketContext, params: MarketFetchParams = {}): Promise<Market> {
  const [market] = await fetchMarkets(ctx, params);
  if (!market) {
    const key = params.marketId ?? params.slug ?? params.outcomeId ?? params.query ?? '';
    throw new PredgateError('MARKET_NOT_FOUND', `Market not found: ${key}`.trim(), {
      exchange: venueId,
      detail: pick(params, ['marketId', 'slug', 'outcomeId', 'query']),
    });
  }
  return market;
}

async function selectMarkets(ctx: PolymarketContext, params: MarketFetchParams): Promise<Market[]> {
  const keyed = await marketsByKey(ctx, params);
  if (keyed) return keyed.map(({ market, event }) => normalizeMarket(market, event));
  const window = pageWindow(params, ctx.pageSize);
  if (params.query || params.category || params.tags || params.series) {
    // Only events carry tags, series and search hits: their markets are the answer, cut to `limit`.
    const events = await fetchEvents(ctx, { ...params, filter: undefined });
    const markets = events.flatMap((event) =>
      event.markets.filter((market) => !params.query || textMatches([market.title, event.title], market.description, params)),
    );
    return markets.slice(0, window.limit);
  }
  const raw = await readPages(window, gammaMaxPage, (page) =>
    ctx.gamma.markets({ ...page, ...statusQuery(params.status ?? 'active'), ...sortQuery(params.sort ?? 'volume') }),
  );
  return raw.map((market) => normalizeMarket(market));
}

/** Markets named by key; undefined when the call names none. */
async function marketsByKey(ctx: PolymarketContext, params: MarketFetchParams): Promise<MarketRecord[] | undefined> {
  const single = (record: MarketRecord | undefined) => (record ? [record] : []);
  if (params.marketId !== undefined) return single(await ctx.lookup.byMarketId(params.marketId));
  if (params.slug !== undefined) return single(await ctx.lookup.bySlug(params.slug));
  if (params.outcomeId !== undefined) {
    const market = await ctx.lookup.byToken(params.outcomeId);
    return market ? [{ market }] : [];
  }
  if (params.eventId !== undefined) {
    const events = isGammaId(params.eventId) ? await ctx.gamma.events({ id: params.eventId }) : [];
    return events.flatMap((event) => (event.markets ?? []).map((market) => ({ market, event })));
  }
  return undefined;
}
