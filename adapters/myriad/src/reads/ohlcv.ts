import { bucketCandles, invalidArgument, resolutionMs, toNumber } from '@predgate/core';
import type { OHLCVParams, PricePoint } from '@predgate/core';
import type { RawChart } from '../api/schemas.js';
import { venueId } from '../venue.js';
import type { MyriadContext } from '../context.js';
import { outcomeOf } from './outcome.js';

/** `price_charts` windows and their point spacing, coarsest first: 30d every 4 hours, 7d every 30 minutes, 24h every 5. */
const chartWindows: Array<[timeframe: string, spacingMs: number]> = [
  ['30d', 14_400_000],
  ['7d', 1_800_000],
  ['24h', 300_000],
];

export async function fetchOHLCV(ctx: MyriadContext, outcomeId: string, params: OHLCVParams) {
  const { outcome } = await outcomeOf(ctx, outcomeId);
  const stepMs = resolutionMs(params.resolution);
  // The longest window whose points fit the candle: candles of 1h come from the 7-day chart's 30-minute points.
  const window = chartWindows.find(([, spacing]) => spacing <= stepMs && stepMs % spacing === 0);
  if (!window)
    throw invalidArgument('params.resolution', `${venueId} price charts have points every 5m, 30m or 4h; "${params.resolution}" is not a multiple of one`);
  const points: PricePoint[] = chartOf(outcome.price_charts, window[0]).map((point) => ({
    timestamp: point.timestamp * 1000,
    price: toNumber(point.value)!,
  }));
  const start = params.start?.getTime() ?? -Infinity;
  const end = params.end?.getTime() ?? Infinity;
  const candles = bucketCandles(
    points.filter((point) => point.timestamp >= start && point.timestamp <= end),
    stepMs,
  );
  return params.limit === undefined ? candles : candles.slice(-params.limit);
}

/** Charts come as a list of `{timeframe, prices}` or, on some deployments, keyed by timeframe. */
function chartOf(charts: RawChart | null | undefined, timeframe: string) {
  if (Array.isArray(charts)) return charts.find((each) => each.timeframe === timeframe)?.prices ?? [];
  const keyed = charts?.[timeframe];
  return (Array.isArray(keyed) ? keyed : keyed?.prices) ?? [];
}
