import type { OHLCVParams, PriceCandle, Trade, TradesParams } from '@predgate/core';
import { segment } from '../api/client.js';
import { collectPages } from '../api/paging.js';
import type { RawCandle, RawTrade } from '../api/types.js';
import type { KalshiContext } from '../context.js';
import { invalidArgument } from '../errors.js';
import { outcomeIdOf, outcomeOf } from '../ids.js';
import { aggregateCandles, candleForSide, normalizeCandle } from '../normalize/candles.js';
import { unixSeconds } from '../normalize/numbers.js';
import { normalizeTrade } from '../normalize/trades.js';
import { seriesTickerOf } from './markets.js';
import { checked } from '../api/schemas.js';

const defaultTrades = 100;
/** The venue's largest trades page. */
const maxTradesPage = 1_000;
const day = 86_400;

/** fetchTrades: the market's public tape (`GET /markets/trades`), seen from the outcome's side. */
export async function fetchTrades(ctx: KalshiContext, outcomeId: string, params: TradesParams = {}): Promise<Trade[]> {
  const { ticker, side } = outcomeOf(outcomeId);
  const trades = await collectPages<RawTrade>(
    'trades',
    (cursor, remaining) =>
      ctx.api.get('/markets/trades', {
        ticker,
        limit: Math.min(maxTradesPage, remaining),
        cursor,
        min_ts: unixSeconds(params.start),
        max_ts: unixSeconds(params.end),
      }),
    params.limit ?? defaultTrades,
    ctx.config.maxPages,
    { venue: ctx.origin.exchange, endpoint: 'GET /markets/trades' },
  );
  const id = outcomeIdOf(ticker, side);
  return trades.flatMap((raw) => normalizeTrade(raw, side, id) ?? []);
}

/**
 * fetchOHLCV from `GET /series/{series}/markets/{ticker}/candlesticks`. The
 * series ticker comes from the market's event (a market ticker does not
 * contain it reliably). Kalshi serves 1-minute, 1-hour and 1-day candles;
 * other whole-minute resolutions (5m, 15m, 6h, ...) are built here from the
 * largest of those that divides them. Without `start`, the window is the
 * last `limit` periods, or the last 24 hours.
 */
export async function fetchOHLCV(ctx: KalshiContext, outcomeId: string, params: OHLCVParams): Promise<PriceCandle[]> {
  const { ticker, side } = outcomeOf(outcomeId);
  const plan = candlePlan(params.resolution, ctx.origin.exchange);
  const seriesTicker = await seriesTickerOf(ctx, ticker);
  const end = unixSeconds(params.end) ?? Math.floor(ctx.clock.now() / 1000);
  const start = unixSeconds(params.start) ?? end - (params.limit ? params.limit * plan.periodSeconds : day);
  const answer = checked<{ candlesticks?: RawCandle[] | null }>(
    'GET /series/{series}/markets/{ticker}/candlesticks',
    ctx.origin.exchange,
    await ctx.api.get<unknown>(`/series/${segment(seriesTicker)}/markets/${segment(ticker)}/candlesticks`, {
      // Aligned, so a built candle is never made from part of its period.
      start_ts: Math.floor(start / plan.periodSeconds) * plan.periodSeconds,
      end_ts: end,
      period_interval: plan.venueMinutes,
    }),
  );
  const venueCandles = (answer.candlesticks ?? []).map((raw) => normalizeCandle(raw, plan.venueMinutes * 60));
  const candles = plan.periodSeconds === plan.venueMinutes * 60 ? venueCandles : aggregateCandles(venueCandles, plan.periodSeconds * 1000);
  const sided = candles.map((candle) => candleForSide(candle, side));
  return params.limit ? sided.slice(-params.limit) : sided;
}

interface CandlePlan {
  /** The venue's period to ask for: 1, 60 or 1440 minutes. */
  venueMinutes: 1 | 60 | 1_440;
  /** The period asked for. */
  periodSeconds: number;
}

function candlePlan(resolution: string, venue: string): CandlePlan {
  const match = /^(\d+)([smhd])$/.exec(resolution);
  const unitSeconds = { s: 1, m: 60, h: 3_600, d: day };
  const periodSeconds = match ? Number(match[1]) * unitSeconds[match[2] as keyof typeof unitSeconds] : 0;
  if (periodSeconds === 0 || periodSeconds % 60 !== 0) {
    throw invalidArgument(
      venue,
      'fetchOHLCV',
      'params.resolution',
      `"params.resolution" must be a whole number of minutes (1m, 5m, 15m, 1h, 6h, 1d, ...) on ${venue}`,
    );
  }
  const minutes = periodSeconds / 60;
  const venueMinutes = minutes % 1_440 === 0 ? 1_440 : minutes % 60 === 0 ? 60 : 1;
  return { venueMinutes, periodSeconds };
}
