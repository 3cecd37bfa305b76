import { collectingDrift, marketListPredicate } from '@predgate/core';
import type { Event, Market, MarketFetchParams } from '@predgate/core';
import { defaultLimit } from '../venue.js';
import type { GeminiContext } from '../context.js';
import { sideOfOutcomeId } from '../ids.js';
import { eventOf, remember, selectEvents } from './events.js';

export async function fetchMarkets(ctx: GeminiContext, params: MarketFetchParams = {}): Promise<Market[]> {
  const symbol = params.marketId ?? params.slug?.toUpperCase() ?? (params.outcomeId === undefined ? undefined : sideOfOutcomeId(params.outcomeId)?.symbol);
  const keep = marketListPredicate(params);
  if (symbol !== undefined) {
    const { value: event, reports } = await collectingDrift(() => eventOfContract(ctx, symbol));
    const found = event?.markets.find((market) => market.marketId === symbol);
    // The contract asked for was sent but could not be read: its own error names the field, where "not found" would mislead.
    const unreadable = found ? undefined : reports.find((report) => report.detail?.item === symbol);
    if (unreadable) throw unreadable;
    return found && (!keep || keep(found)) ? [found] : [];
  }
  const { filter: _marketFilter, ...listParams } = params;
  const events = remember(ctx, await selectEvents(ctx, listParams));
  return events
    .flatMap((event) => event.markets)
    .filter((market) => !keep || keep(market))
    .slice(0, params.limit ?? defaultLimit);
}

/** The event holding a contract: known from a listing, else tried from the symbol (`GEMI-<event>-<contract>`), longest first. */
async function eventOfContract(ctx: GeminiContext, symbol: string): Promise<Event | undefined> {
  const known = ctx.eventOfSymbol.get(symbol);
  if (known) return eventOf(ctx, known);
  const parts = symbol.replace(/^GEMI-/, '').split('-');
  for (let cut = parts.length - 1; cut >= Math.max(1, parts.length - 3); cut -= 1) {
    const event = await eventOf(ctx, parts.slice(0, cut).join('-'));
    if (event?.markets.some((market) => market.marketId === symbol)) return event;
  }
  return undefined;
}
