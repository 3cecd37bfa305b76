import { invalidArgument } from '@predgate/core';
import type { MyTradesParams, UserTrade } from '@predgate/core';
import type { ProbableContext } from '../context.js';
import { toUserTrade } from '../normalize/account.js';
import { outcomeTokens } from '../normalize/markets.js';

const defaultLimit = 100;
/** Fills are read 20 a page (the docs' example), at most this many pages per token. */
const tradesPageSize = 20;
const maxTradePages = 25;

/**
 * The account's fills. Probable lists them per token (`GET /trade/56?tokenId=`,
 * L2): give `outcomeId`, or `marketId` for both of its tokens. `since` and
 * `until` are applied here (the venue's `before`/`after` are opaque cursors);
 * `cursor` resumes one token's listing.
 */
export async function fetchMyTrades(ctx: ProbableContext, params: MyTradesParams = {}): Promise<UserTrade[]> {
  const limit = params.limit ?? defaultLimit;
  let tokens: string[];
  if (params.outcomeId !== undefined) {
    if (!/^\d{1,100}$/.test(params.outcomeId)) throw invalidArgument('params.outcomeId', '"params.outcomeId" must be an outcome token id (digits)');
    tokens = [params.outcomeId];
  } else if (params.marketId !== undefined) {
    if (!/^\d{1,12}$/.test(params.marketId)) throw invalidArgument('params.marketId', '"params.marketId" must be a Probable market id (digits)');
    tokens = outcomeTokens(await ctx.api.market(params.marketId)).map((token) => token.tokenId);
  } else {
    throw invalidArgument('params.outcomeId', 'Probable lists fills per outcome token: give params.outcomeId, or params.marketId for both of its tokens');
  }
  if (params.cursor !== undefined && tokens.length > 1) {
    throw invalidArgument('params.cursor', 'a cursor resumes the fills of one token: give params.outcomeId with it');
  }
  const since = params.since?.getTime() ?? -Infinity;
  const until = params.until?.getTime() ?? Infinity;
  const trades: UserTrade[] = [];
  for (const tokenId of tokens) {
    let cursor = params.cursor;
    let kept = 0;
    for (let page = 0; page < maxTradePages && kept < limit; page += 1) {
      const answer = await ctx.private.trades({ tokenId, limit: tradesPageSize, next_cursor: cursor });
      const fills = answer.trades.map((raw) => toUserTrade(raw, tokenId, params.marketId));
      const inWindow = fills.filter((fill) => fill.timestamp >= since && fill.timestamp <= until);
      trades.push(...inWindow);
      kept += inWindow.length;
      // Newest first: a page that reaches past `since` is the last one needed.
      const next = answer.next_cursor || undefined;
      if (!next || next === cursor || answer.trades.length < tradesPageSize || fills.some((fill) => fill.timestamp < since)) break;
      cursor = next;
    }
  }
  return trades.sort((a, b) => b.timestamp - a.timestamp).slice(0, limit);
}
