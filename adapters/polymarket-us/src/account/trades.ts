import type { MyTradesParams, UserTrade } from '@predgate/core';
import { defaultLimit } from '../venue.js';
import type { PolymarketUsContext } from '../context.js';
import { partsOfOutcomeId } from '../ids.js';
import { normalizeMyTrade } from '../normalize/account.js';

const pageSize = 100;
const maxPages = 20;

/**
 * fetchMyTrades: the trades of the account's activity feed
 * (`/v1/portfolio/activities?types=ACTIVITY_TYPE_TRADE`), newest first,
 * followed by its cursor until `limit` fills or the feed ends. An outcome id
 * narrows to its market: the venue's trade record names no side.
 */
export async function fetchMyTrades(ctx: PolymarketUsContext, params: MyTradesParams = {}): Promise<UserTrade[]> {
  const marketSlug = params.marketId ?? (params.outcomeId === undefined ? undefined : partsOfOutcomeId(params.outcomeId)?.slug);
  const wanted = params.limit ?? defaultLimit;
  const since = params.since?.getTime() ?? -Infinity;
  const until = params.until?.getTime() ?? Infinity;
  const trades: UserTrade[] = [];
  let cursor = params.cursor;
  for (let page = 0; page < maxPages && trades.length < wanted; page += 1) {
    const answer = await ctx.api.activities({
      types: 'ACTIVITY_TYPE_TRADE',
      sortOrder: 'SORT_ORDER_DESCENDING',
      limit: pageSize,
      ...(marketSlug === undefined ? {} : { marketSlug }),
      ...(cursor === undefined ? {} : { cursor }),
    });
    const fills = answer.activities.flatMap((activity) => (activity.trade ? [normalizeMyTrade(activity.trade)] : []));
    trades.push(...fills.filter((trade) => trade.timestamp >= since && trade.timestamp <= until));
    // Newest first: once a page reaches back past `since`, older pages hold nothing wanted.
    if (answer.eof !== false || !answer.nextCursor || fills.some((trade) => trade.timestamp < since)) break;
    cursor = answer.nextCursor;
  }
  return trades.slice(0, wanted);
}
