import { marketListPredicate, unlessMissing } from '@predgate/core';
import type { Market, MarketFetchParams } from '@predgate/core';
import { defaultLimit } from '../venue.js';
import type { PolymarketUsContext } from '../context.js';
import { partsOfOutcomeId } from '../ids.js';
import { normalizeMarket, settledMarket } from '../normalize/markets.js';
import { selectEvents } from './events.js';
import { pages, statusQuery } from './paging.js';

export async function fetchMarkets(ctx: PolymarketUsContext, params: MarketFetchParams = {}): Promise<Market[]> {
  const slug = params.marketId ?? params.slug ?? (params.outcomeId === undefined ? undefined : partsOfOutcomeId(params.outcomeId)?.slug);
  const keep = marketListPredicate(params);
  if (slug !== undefined) {
    const answer = await unlessMissing(ctx.api.marketBySlug(slug));
    const market = answer && (await withSettlement(ctx, normalizeMarket(answer.market)));
    return market && (!keep || keep(market)) ? [market] : [];
  }
  const { filter: _marketFilter, ...listParams } = params;
  const markets =
    params.eventId || params.query || params.category || params.tags || params.series
      ? (await selectEvents(ctx, listParams)).flatMap((event) => event.markets)
      : (
          await pages((limit, offset) => ctx.api.markets({ ...statusQuery(params.status ?? 'active'), limit, offset }).then((page) => page.markets), params)
        ).map((market) => normalizeMarket(market));
  return markets.filter((market) => !keep || keep(market)).slice(0, params.limit ?? defaultLimit);
}

/**
 * A lookup of a closed or archived market asks how it settled
 * (`GET /v1/markets/{slug}/settlement`, one request, made for lookups only:
 * lists carry no result and a request per closed market would be too many).
 * A market not settled yet answers 404 and stays as listed.
 */
async function withSettlement(ctx: PolymarketUsContext, market: Market): Promise<Market> {
  if (market.status !== 'closed' && market.status !== 'archived') return market;
  const settlement = await unlessMissing(ctx.api.settlement(market.marketId));
  const named = settlement?.slug ?? settlement?.marketSlug;
  return settlement && (!named || named === market.marketId) ? settledMarket(market, settlement) : market;
}
