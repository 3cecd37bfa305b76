import { PredgateError, bucketCandles, complement, invalidArgument, percentToFraction, resolutionMs, toEpochMs, toNumber } from '@predgate/core';
import type { OHLCVParams, TradesParams } from '@predgate/core';
import type { RawHistoryPoint } from '../api/schemas.js';
import { venueId } from '../venue.js';
import type { HunchContext } from '../context.js';
import { unreadable } from '../errors.js';
import { splitOutcomeId } from '../ids.js';

/** Each bet on an outcome, read from its market's odds history. */
export async function fetchTrades(ctx: HunchContext, outcomeId: string, params: TradesParams = {}) {
  const start = params.start?.getTime() ?? -Infinity;
  const end = params.end?.getTime() ?? Infinity;
  const trades = (await fillsOf(ctx, outcomeId))
    .filter((fill) => fill.timestamp >= start && fill.timestamp <= end)
    .map((fill, index) => ({
      id: `${fill.at}-${index}`,
      timestamp: fill.timestamp,
      price: fill.price,
      amount: fill.amount,
      side: 'buy' as const,
      outcomeId,
    }));
  return params.limit === undefined ? trades : trades.slice(-params.limit);
}

/** Candles bucketed from the bets of the odds history. */
export async function fetchOHLCV(ctx: HunchContext, outcomeId: string, params: OHLCVParams) {
  const stepMs = resolutionMs(params.resolution);
  const start = params.start?.getTime() ?? -Infinity;
  const end = params.end?.getTime() ?? Infinity;
  const fills = (await fillsOf(ctx, outcomeId)).filter((fill) => fill.timestamp >= start && fill.timestamp <= end);
  const candles = bucketCandles(
    fills.map((fill) => ({ timestamp: fill.timestamp, price: fill.price, volume: fill.amount })),
    stepMs,
  );
  return params.limit === undefined ? candles : candles.slice(-params.limit);
}

/** The research of the market an outcome id names, and the side the id names. */
async function researchOf(ctx: HunchContext, outcomeId: string) {
  const parts = splitOutcomeId(outcomeId);
  if (!parts) throw invalidArgument('outcomeId', `${venueId} outcome ids are <market>:<side>, such as hunch-10m:yes`);
  const research = await ctx.api.research(parts.marketId);
  const binary = !research.market.outcomes;
  if (binary ? parts.side !== 'yes' && parts.side !== 'no' : !research.market.outcomes!.some((rung) => rung.key === parts.side)) {
    throw new PredgateError('OUTCOME_NOT_FOUND', `${venueId} market ${parts.marketId} has no outcome "${parts.side.slice(0, 80)}"`, {
      exchange: venueId,
      detail: { outcomeId: outcomeId.slice(0, 200) },
    });
  }
  return { research, side: parts.side, binary };
}

/** Each bet on the outcome, as the research's odds history records it: the side's implied odds after the bet, and its stake. */
async function fillsOf(ctx: HunchContext, outcomeId: string) {
  const { research, side, binary } = await researchOf(ctx, outcomeId);
  const points = (research.oddsHistory ?? []).filter((point) => (binary ? !point.outcomeKey : point.outcomeKey === side));
  return points.map((point: RawHistoryPoint) => {
    const timestamp = toEpochMs(point.at);
    if (timestamp === undefined) throw unreadable('oddsHistory.at');
    const yes = percentToFraction(point.yesPct)!;
    // Odds and stakes come as numbers or numeric text (the schema takes both).
    return { timestamp, price: binary && side === 'no' ? complement(yes) : yes, amount: toNumber(point.sizeUsd)!, at: point.at };
  });
}
