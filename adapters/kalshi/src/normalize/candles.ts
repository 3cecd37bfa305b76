import type { PriceCandle } from '@predgate/core';
import type { RawCandle, RawCandlePrices } from '../api/types.js';
import type { ContractSide } from '../ids.js';
import { complement, countField, dollarsField, roundCount, roundPrice } from './numbers.js';

type Ohlc = Pick<PriceCandle, 'open' | 'high' | 'low' | 'close'>;

/**
 * A Kalshi candlestick as a YES price candle. Kalshi stamps a candle with the
 * end of its period; the unified timestamp is the start. Prices are the
 * traded prices when the period traded; otherwise the middle of the YES bid
 * and ask; otherwise flat at the previous traded price; otherwise 0.
 */
export function normalizeCandle(raw: RawCandle, periodSeconds: number): PriceCandle {
  const ohlc = traded(raw.price) ?? quoted(raw.yes_bid, raw.yes_ask) ?? flat(dollarsField(raw.price, 'previous') ?? 0);
  const volume = countField(raw, 'volume');
  return {
    timestamp: (raw.end_period_ts - periodSeconds) * 1000,
    ...ordered(ohlc),
    ...(volume === undefined ? {} : { volume }),
  };
}

/** The same candle for the NO contract: every price mirrored, so the high comes from the YES low. */
export function mirrorCandle(candle: PriceCandle): PriceCandle {
  return {
    ...candle,
    open: complement(candle.open),
    high: complement(candle.low),
    low: complement(candle.high),
    close: complement(candle.close),
  };
}

export function candleForSide(candle: PriceCandle, side: ContractSide): PriceCandle {
  return side === 'yes' ? candle : mirrorCandle(candle);
}

/**
 * Candles of a longer period built from shorter ones (5 minutes from 1-minute
 * candles, 6 hours from hourly ones): buckets aligned on the Unix epoch, first
 * open, highest high, lowest low, last close, summed volume.
 */
export function aggregateCandles(candles: readonly PriceCandle[], periodMs: number): PriceCandle[] {
  const buckets = new Map<number, PriceCandle>();
  for (const candle of [...candles].sort((a, b) => a.timestamp - b.timestamp)) {
    const start = Math.floor(candle.timestamp / periodMs) * periodMs;
    const bucket = buckets.get(start);
    if (!bucket) {
      buckets.set(start, { ...candle, timestamp: start });
      continue;
    }
    bucket.high = Math.max(bucket.high, candle.high);
    bucket.low = Math.min(bucket.low, candle.low);
    bucket.close = candle.close;
    if (bucket.volume !== undefined || candle.volume !== undefined) {
      bucket.volume = roundCount((bucket.volume ?? 0) + (candle.volume ?? 0));
    }
  }
  return [...buckets.values()];
}

function traded(prices: RawCandlePrices | undefined): Ohlc | undefined {
  const close = dollarsField(prices, 'close');
  if (close === undefined) return undefined;
  const or = (name: string) => dollarsField(prices, name) ?? close;
  return { open: or('open'), high: or('high'), low: or('low'), close };
}

function quoted(bid: RawCandlePrices | undefined, ask: RawCandlePrices | undefined): Ohlc | undefined {
  const bids = traded(bid);
  const asks = traded(ask);
  if (!bids || !asks) return undefined;
  const mid = (name: keyof Ohlc) => roundPrice((bids[name] + asks[name]) / 2);
  return { open: mid('open'), high: mid('high'), low: mid('low'), close: mid('close') };
}

function flat(price: number): Ohlc {
  return { open: price, high: price, low: price, close: price };
}

/** Keeps low <= open, close <= high whatever the venue's fields say. */
function ordered(ohlc: Ohlc): Ohlc {
  return {
    open: ohlc.open,
    high: Math.max(ohlc.open, ohlc.high, ohlc.low, ohlc.close),
    low: Math.min(ohlc.open, ohlc.high, ohlc.low, ohlc.close),
    close: ohlc.close,
  };
}
