import { invalidArgument } from '@predgate/core';
import type { MyTradesParams, QueryValue, UserTrade } from '@predgate/core';
import { pageSize, venueId } from '../venue.js';
import type { MyriadContext } from '../context.js';
import { partsOf } from '../ids.js';
import { isTrade, tradeOf } from '../normalize/trades.js';
import { walletOf } from './wallet.js';

/**
 * The wallet's buys and sells from its user events (`GET /users/{address}/events`),
 * newest first. A market or outcome narrows the venue's query to that market;
 * the outcome is then kept here, as the venue filters by market only.
 */
export async function fetchMyTrades(ctx: MyriadContext, params: MyTradesParams = {}): Promise<UserTrade[]> {
  const wallet = walletOf(ctx);
  const outcome = params.outcomeId === undefined ? undefined : partsOf(params.outcomeId);
  if (params.outcomeId !== undefined && outcome?.outcomeId === undefined)
    throw invalidArgument('outcomeId', `${venueId} outcome ids are <network>:<market>:<outcome>, such as 2741:164:0`);
  const market = params.marketId === undefined ? undefined : partsOf(params.marketId);
  if (params.marketId !== undefined && (market === undefined || market.outcomeId !== undefined))
    throw invalidArgument('marketId', `${venueId} market ids are <network>:<market>, such as 2741:164`);
  const narrowed = outcome ?? market;
  const query: Record<string, QueryValue> = {
    ...(narrowed ? { market_id: narrowed.marketId, network_id: narrowed.networkId } : {}),
    ...(params.since ? { since: Math.floor(params.since.getTime() / 1000) } : {}),
    ...(params.until ? { until: Math.floor(params.until.getTime() / 1000) } : {}),
  };
  const { data } = await ctx.api.userEvents(wallet, pageSize, query);
  const same = (id: number | string | undefined, wanted: number | undefined) => wanted === undefined || Number(id) === wanted;
  return data
    .filter(
      (row) =>
        isTrade(row) &&
        same(row.networkId, narrowed?.networkId) &&
        same(row.marketId, narrowed?.marketId) &&
        same(row.outcomeId, outcome?.outcomeId) &&
        // A market and an outcome of another market together match nothing.
        (market === undefined || outcome === undefined || (market.networkId === outcome.networkId && market.marketId === outcome.marketId)),
    )
    .map((row, index) => {
      const marketId = `${Number(row.networkId)}:${Number(row.marketId)}`;
      return { ...tradeOf(row, `${marketId}:${Number(row.outcomeId)}`, index), marketId };
    })
    .slice(0, params.limit ?? pageSize);
}
