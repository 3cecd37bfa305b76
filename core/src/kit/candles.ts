import type { PriceCandle } from '../model/index.js';
import { invalidArgument } from './errors.js';

const unitMs = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds of an OHLCV resolution (`1m`, `15m`, `1h`, `1d`, any `<n><s|m|h|d>`). */
export function resolutionMs(resolution: string): number {
  const match = /^(\d{1,6})([smhd])$/.exec(resolution);
  const ms = match ? Number(match[1]) * unitMs[match[2] as keyof typeof unitMs] : 0;
  if (ms <= 0) throw invalidArgument('params.resolution', `"params.resolution" must be a duration such as 1m, 1h or 1d, got "${resolution}"`);
  return ms;
}

export interface PricePoint {
  /** Unix milliseconds. */
  timestamp: number;
  price: number;
  volume?: number;
}

/**
 * Candles of `stepMs` built from price points (trades or samples), stamped
 * with their start, oldest first; buckets without a point are left out.
 */
export function bucketCandles(points: readonly PricePoint[], stepMs: number): PriceCandle[] {
  const sorted = [...points].sort((a, b) => a.timestamp - b.timestamp);
  const candles: PriceCandle[] = [];
  let current: PriceCandle | undefined;
  for (const point of sorted) {
    const start = Math.floor(point.timestamp / stepMs) * stepMs;
    if (!current || current.timestamp !== start) {
      current = { timestamp: start, open: point.price, high: point.price, low: point.price, close: point.price };
      if (point.volume !== undefined) current.volume = 0;
      candles.push(current);
    }
    current.high = Math.max(current.high, point.price);
    current.low = Math.min(current.low, point.price);
    current.close = point.price;
    if (point.volume !== undefined) current.volume = (current.volume ?? 0) + point.volume;
  }
  return candles;
}

/** Wider candles from narrower ones (a venue's 1m candles as 5m), stamped with their start. */
export function mergeCandles(candles: readonly PriceCandle[], stepMs: number): PriceCandle[] {
  const merged: PriceCandle[] = [];
  for (const candle of [...candles].sort((a, b) => a.timestamp - b.timestamp)) {
    const start = Math.floor(candle.timestamp / stepMs) * stepMs;
    const last = merged.at(-1);
    if (last && last.timestamp === start) {
      last.high = Math.max(last.high, candle.high);
      last.low = Math.min(last.low, candle.low);
      last.close = candle.close;
      if (candle.volume !== undefined) last.volume = (last.volume ?? 0) + candle.volume;
    } else {
      merged.push({ ...candle, timestamp: start });
    }
  }
  return merged;
}
