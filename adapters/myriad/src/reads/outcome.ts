import { PredgateError, invalidArgument } from '@predgate/core';
import type { Market } from '@predgate/core';
import { venueId } from '../venue.js';
import type { MyriadContext } from '../context.js';
import { partsOf } from '../ids.js';
import { normalizeMarket } from '../normalize/markets.js';

/**
 * The market and outcome an outcome id names; a market id with `yes`/`no`
 * (a binary market's sides) or an outcome number names one too.
 */
export async function outcomeOf(ctx: MyriadContext, id: string, side?: string) {
  const parts = partsOf(id);
  if (!parts || (parts.outcomeId === undefined && side === undefined)) {
    throw invalidArgument('outcomeId', `${venueId} outcome ids are <network>:<market>:<outcome>, such as 2741:164:0`);
  }
  const market = await ctx.api.market(parts.marketId, parts.networkId);
  const outcomeId = parts.outcomeId ?? sideOf(normalizeMarket(market), side!);
  const outcome = market.outcomes.find((each) => Number(each.id) === outcomeId);
  if (!outcome) throw notFoundOutcome(side === undefined ? id : `${id} ${side}`);
  return { market, outcome };
}

/** The outcome number that `yes`/`no` (on a binary market) or one of the market's outcome ids names. */
function sideOf(market: Market, outcome: string): number | undefined {
  const named = outcome === 'yes' || outcome === 'no' ? market[outcome]?.outcomeId : outcome;
  const parts = named === undefined ? undefined : partsOf(named);
  return parts && `${parts.networkId}:${parts.marketId}` === market.marketId ? parts.outcomeId : undefined;
}

function notFoundOutcome(outcomeId: string) {
  return new PredgateError('OUTCOME_NOT_FOUND', `${venueId} has no outcome ${outcomeId.slice(0, 80)}`, {
    exchange: venueId,
    detail: { outcomeId: outcomeId.slice(0, 80) },
  });
}
