import { inCatalogOrder, marketListPredicate, unlessMissing } from '@predgate/core';
import type { Market, MarketFetchParams } from '@predgate/core';
import type { SuibetsContext } from '../context.js';
import { normalizeOffer } from '../normalize/markets.js';
import { listOffers, lookupStatus, pageOf } from './offers.js';

export async function fetchMarkets(ctx: SuibetsContext, params: MarketFetchParams = {}): Promise<Market[]> {
  const keep = marketListPredicate(params);
  const markets = (await selectMarkets(ctx, params)).filter((market) => !keep || keep(market));
  return pageOf(params.sort === undefined || params.sort === 'volume' ? inCatalogOrder(markets, (market) => market.marketId) : markets, params);
}

async function selectMarkets(ctx: SuibetsContext, params: MarketFetchParams): Promise<Market[]> {
  const key = params.marketId ?? params.slug ?? params.outcomeId?.replace(/:(creator|taker)$/, '');
  if (key !== undefined) {
    // Offer ids are integers; anything else names no offer.
    if (!/^\d{1,15}$/.test(key)) return [];
    const raw = await unlessMissing(ctx.api.offer(Number(key)));
    const market = raw ? normalizeOffer(raw) : undefined;
    return market && (params.status === undefined || params.status === 'all' || (market.status === 'active') === (params.status === 'active')) ? [market] : [];
  }
  return (await listOffers(ctx, params, lookupStatus(params))).map(normalizeOffer);
}
