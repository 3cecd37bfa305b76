import { invalidArgument, toNumber } from '@predgate/core';
import type { QueryValue, TradesParams } from '@predgate/core';
import { pageSize, venueId } from '../context.js';
import type { MyriadContext } from '../context.js';
import { partsOf } from '../ids.js';

export async function fetchTrades(ctx: MyriadContext, outcomeId: string, params: TradesParams = {}) {
  const parts = partsOf(outcomeId);
  if (parts?.outcomeId === undefined) throw invalidArgument('outcomeId', `${venueId} outcome ids are <network>:<market>:<outcome>, such as 2741:164:0`);
  const window: Record<string, QueryValue> = {
    ...(params.start ? { since: Math.floor(params.start.getTime() / 1000) } : {}),
    ...(params.end ? { until: Math.floor(params.end.getTime() / 1000) } : {}),
  };
  const { data } = await ctx.api.events(parts.marketId, parts.networkId, pageSize, window);
  return data
    .filter((row) => (row.action === 'buy' || row.action === 'sell') && row.outcomeId === parts.outcomeId && toNumber(row.shares)! > 0)
    .map((row, index) => ({
      id: row.txId ?? `${row.blockNumber ?? row.timestamp}-${index}`,
      timestamp: row.timestamp * 1000,
      price: toNumber(row.value)! / toNumber(row.shares)!,
      amount: toNumber(row.shares)!,
      side: row.action as 'buy' | 'sell',
      outcomeId,
    }))
    .slice(0, params.limit ?? pageSize);
}
