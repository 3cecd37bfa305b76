import { invalidArgument, toEpochMs } from '@predgate/core';
import type { MyTradesParams, UserTrade } from '@predgate/core';
import type { RawHistoryEntry } from '../api/schemas.js';
import { venueId } from '../venue.js';
import type { LimitlessContext } from '../context.js';
import { historyTrade, isTrade } from '../normalize/account.js';
import { outcomeIdsOf } from '../reads/lookups.js';

/** The activity log: entries a page, and pages one call reads at most. */
const historyPage = 25;
const historyPages = 20;
const defaultTradeLimit = 100;

/**
 * Fills from the activity log (`GET /portfolio/history`, cursor-paged,
 * newest first): its Buy/Sell entries; splits, merges and conversions
 * are not trades. Filters apply here, so pages are read until `limit`
 * fills are kept (at most 20 pages of 25).
 */
export async function fetchMyTrades(ctx: LimitlessContext, params: MyTradesParams = {}): Promise<UserTrade[]> {
  if (params.cursor !== undefined)
    throw invalidArgument('params.cursor', `fetchMyTrades: ${venueId}'s log cursor is internal to the adapter (use since, until, limit)`);
  const limit = params.limit ?? defaultTradeLimit;
  const since = params.since?.getTime() ?? -Infinity;
  const until = params.until?.getTime() ?? Infinity;
  const kept: RawHistoryEntry[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < historyPages && kept.length < limit; page += 1) {
    const { data, nextCursor } = await ctx.api.history(cursor, historyPage, ctx.sign);
    for (const entry of data.filter(isTrade)) {
      const time = toEpochMs(entry.blockTimestamp)!;
      if (time < since || time > until || (params.marketId !== undefined && entry.market!.slug !== params.marketId)) continue;
      kept.push(entry);
    }
    if (!nextCursor || nextCursor === cursor || data.length === 0) break;
    cursor = nextCursor;
  }
  const trades: UserTrade[] = [];
  for (const entry of kept) trades.push(...historyTrade(entry, await outcomeIdsOf(ctx, entry.market!.slug)));
  const wanted = params.outcomeId === undefined ? trades : trades.filter((trade) => trade.outcomeId === params.outcomeId);
  return wanted.slice(0, limit);
}
