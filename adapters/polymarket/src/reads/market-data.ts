import { PredgateError } from '@predgate/core';
import type { OHLCVParams, PriceCandle, Trade, TradesParams } from '@predgate/core';
import type { PolymarketContext } from '../context.js';
import { bucketCandles, normalizeTapeTrade } from '../normalize/market-data.js';
import { venueId } from '../venue.js';

const defaultTrades = 100;
const defaultCandles = 100;
/** The Data API's largest page. */
const maxTapePage = 10_000;

/**
 * The Data API tape has no outcome filter: it is read by the token's market
 * (condition id) and the other outcome's rows are dropped, so twice `limit`
 * rows are asked for. `start`/`end` filter the rows returned.
 */
export async function fetchTrades(ctx: PolymarketContext, outcomeId: string, params: TradesParams = {}): Promise<Trade[]> {
  const market = await ctx.lookup.byToken(outcomeId);
  if (!market?.conditionId) {
    throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome not found: ${outcomeId}`, { exchange: venueId, detail: { outcomeId } });
  }
  const limit = params.limit ?? defaultTrades;
  const rows = await ctx.data.trades({ market: market.conditionId, limit: Math.min(limit * 2, maxTapePage), takerOnly: true });
  const start = params.start?.getTime() ?? -Infinity;
  const end = params.end?.getTime() ?? Infinity;
  return rows
    .filter((row) => row.asset === outcomeId)
    .map(normalizeTapeTrade)
    .filter((trade): trade is Trade => trade !== undefined && trade.timestamp >= start && trade.timestamp <= end)
    .slice(0, limit);
}

/**
 * Candles of `resolution` from price samples one `resolution` apart
 * (`fidelity`, in minutes). Without `start`, the window is the `limit`
 * candles before `end` (now by default).
 */
export async function fetchOHLCV(ctx: PolymarketContext, outcomeId: string, params: OHLCVParams): Promise<PriceCandle[]> {
  const minutes = resolutionMinutes(params.resolution);
  const step = minutes * 60_000;
  const end = params.end?.getTime() ?? ctx.clock.now();
  const count = params.limit ?? defaultCandles;
  const start = params.start?.getTime() ?? end - count * step;
  const history = await ctx.clob.pricesHistory({
    market: outcomeId,
    startTs: Math.floor(start / 1000),
    endTs: Math.floor(end / 1000),
    fidelity: minutes,
  });
  const firstBucket = Math.floor(start / step) * step;
  const candles = bucketCandles(history.history ?? [], step).filter((candle) => candle.timestamp >= firstBucket && candle.timestamp <= end);
  if (params.limit === undefined) return candles;
  return params.start ? candles.slice(0, count) : candles.slice(-count);
}

const minutesPerUnit: Record<string, number> = { m: 1, h: 60, d: 1440 };

/** `1m` → 1, `1h` → 60, `1d` → 1440; the venue's finest sample spacing is one minute. */
function resolutionMinutes(resolution: string): number {
  const match = /^(\d+)([smhd])$/.exec(resolution);
  const minutes = match && match[2] !== 's' ? Number(match[1]) * minutesPerUnit[match[2]!]! : 0;
  if (minutes < 1) {
    throw new PredgateError('VALIDATION_ERROR', `${venueId} candles start at one minute: resolution "${resolution}" is finer than the venue's price samples`, {
      exchange: venueId,
      detail: { argument: 'params', path: 'params.resolution' },
    });
  }
  return minutes;
}
