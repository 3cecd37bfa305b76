import { marketListPredicate } from '@predgate/core';
import type { Market, MarketFetchParams } from '@predgate/core';
import { defaultLimit } from '../venue.js';
import type { LimitlessContext } from '../context.js';
import { selectEvents } from './events.js';
import { bookTarget, marketMarkets, rememberEvents } from './lookups.js';

export async function fetchMarkets(ctx: LimitlessContext, params: MarketFetchParams = {}): Promise<Market[]> {
  const keep = marketListPredicate({ ...params, query: undefined });
  const slug = params.marketId ?? params.slug;
  if (slug !== undefined) return (await marketMarkets(ctx, slug)).filter((market) => market.marketId === slug && (!keep || keep(market)));
  if (params.outcomeId !== undefined) {
    const owner = await bookTarget(ctx, params.outcomeId, undefined).then(
      (target) => target.slug,
      () => undefined,
    );
    return owner ? (await marketMarkets(ctx, owner)).filter((market) => market.marketId === owner) : [];
  }
  const { filter: _marketFilter, ...listParams } = params;
  const markets = rememberEvents(ctx, await selectEvents(ctx, { ...listParams, limit: undefined, offset: undefined })).flatMap((event) => event.markets);
  const offset = params.offset ?? 0;
  return markets.filter((market) => !keep || keep(market)).slice(offset, offset + (params.limit ?? defaultLimit));
}
