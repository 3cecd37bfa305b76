import { marketListPredicate, notSupported } from '@predgate/core';
import type { Event, Market, MarketFetchParams } from '@predgate/core';
import { optionalToken } from '../auth/tokens.js';
import type { SmarketsContext } from '../context.js';
import { isVenueId, partsOfOutcomeId } from '../ids.js';
import { defaultLimit, eventsWithMarkets, selectEvents, states } from './events.js';

export async function fetchMarkets(ctx: SmarketsContext, params: MarketFetchParams = {}): Promise<Market[]> {
  if (params.slug !== undefined)
    throw notSupported('fetchMarkets', 'Smarkets market slugs repeat across events and the API looks nothing up by slug; give the market id');
  const marketId = params.marketId ?? (params.outcomeId === undefined ? undefined : partsOfOutcomeId(params.outcomeId)?.marketId);
  const keep = marketListPredicate(params);
  let events: Event[];
  if (marketId !== undefined) {
    if (!isVenueId(marketId)) return [];
    const auth = await optionalToken(ctx);
    const [market] = (await ctx.api.marketsById([marketId], auth)).markets;
    if (!market) return [];
    events = await eventsWithMarkets(ctx, (await ctx.api.events({ id: market.event_id, state: states.all }, auth)).events, [market]);
  } else {
    const { filter: _marketFilter, ...listParams } = params;
    events = await selectEvents(ctx, listParams);
  }
  return events
    .flatMap((event) => event.markets)
    .filter((market) => (marketId === undefined || market.marketId === marketId) && (!keep || keep(market)))
    .slice(0, params.limit ?? defaultLimit);
}
