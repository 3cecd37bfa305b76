import { PredgateError, bucketCandles, invalidArgument, resolutionMs, toNumber } from '@predgate/core';
import type { OHLCVParams } from '@predgate/core';
import { venueId } from '../venue.js';
import type { ProbableContext } from '../context.js';

/**
 * Price samples bucketed into candles. The venue's `interval` is a
 * look-back window (`1m` is a month, not a minute); resolution is
 * `fidelity` in minutes, and the window is `startTs`/`endTs`.
 */
export async function fetchOHLCV(ctx: ProbableContext, outcomeId: string, params: OHLCVParams) {
  if (!/^\d{20,}$/.test(outcomeId)) throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome not found: ${outcomeId.slice(0, 40)}`, { detail: { outcomeId } });
  const step = resolutionMs(params.resolution);
  if (step < 60_000) throw invalidArgument('params.resolution', `${venueId} price history starts at one minute`);
  const count = params.limit ?? 100;
  const end = params.end?.getTime() ?? ctx.clock.now();
  const start = params.start?.getTime() ?? end - count * step;
  const history = await ctx.api.pricesHistory({
    market: outcomeId,
    startTs: Math.floor(start / 1000),
    endTs: Math.floor(end / 1000),
    fidelity: Math.round(step / 60_000),
  });
  const candles = bucketCandles(
    history.map((point) => ({ timestamp: point.t * 1000, price: toNumber(point.p)! })),
    step,
  ).filter((candle) => candle.timestamp >= Math.floor(start / step) * step && candle.timestamp <= end);
  return params.start ? candles.slice(0, count) : candles.slice(-count);
}
