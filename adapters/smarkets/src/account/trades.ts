import type { MyTradesParams, UserTrade } from '@predgate/core';
import { authed } from '../auth/tokens.js';
import type { SmarketsContext } from '../context.js';
import { partsOfOutcomeId } from '../ids.js';
import { normalizeTrade } from '../normalize/account.js';

/** The statement rows that are fills: a match, and its confirmation after an in-play bet delay. */
const fillSources = ['order.execute', 'order.execute.confirm'];

/** The account's fills from its statement, newest first; an outcome narrows to its market at the venue and to its contract here. */
export async function fetchMyTrades(ctx: SmarketsContext, params: MyTradesParams = {}): Promise<UserTrade[]> {
  const outcome = params.outcomeId === undefined ? undefined : partsOfOutcomeId(params.outcomeId);
  if (params.outcomeId !== undefined && !outcome) return [];
  const marketId = outcome?.marketId ?? params.marketId;
  const query = {
    source: fillSources,
    limit: Math.min(params.limit ?? 100, 500),
    sort: '-seq,-subseq',
    ...(marketId === undefined ? {} : { market_id: marketId }),
    ...(params.since === undefined ? {} : { timestamp_min: params.since.toISOString() }),
    ...(params.until === undefined ? {} : { timestamp_max: params.until.toISOString() }),
  };
  const rows = (await authed(ctx, (auth) => ctx.api.activity(query, auth))).account_activity;
  return rows
    .filter((row) => outcome === undefined || row.contract_id === outcome.contractId)
    .map(normalizeTrade)
    .filter((trade): trade is UserTrade => trade !== undefined);
}
