import { invalidArgument } from '@predgate/core';
import type { QueryValue, TradesParams } from '@predgate/core';
import { pageSize, venueId } from '../venue.js';
import type { MyriadContext } from '../context.js';
import { partsOf } from '../ids.js';
import { isTrade, tradeOf } from '../normalize/trades.js';

export async function fetchTrades(ctx: MyriadContext, outcomeId: string, params: TradesParams = {}) {
  const parts = partsOf(outcomeId);
  if (parts?.outcomeId === undefined) throw invalidArgument('outcomeId', `${venueId} outcome ids are <network>:<market>:<outcome>, such as 2741:164:0`);
  const window: Record<string, QueryValue> = {
    ...(params.start ? { since: Math.floor(params.start.getTime() / 1000) } : {}),
    ...(params.end ? { until: Math.floor(params.end.getTime() / 1000) } : {}),
  };
  const { data } = await ctx.api.events(parts.marketId, parts.networkId, pageSize, window);
  return data
    .filter((row) => isTrade(row) && Number(row.outcomeId) === parts.outcomeId)
    .map((row, index) => tradeOf(row, outcomeId, index))
    .slice(0, params.limit ?? pageSize);
}
