import { compact, normalizeOrderBook, pick, toEpochMs, toFraction, toNumber } from '@predgate/core';
import type { OrderBook, OrderLevel, PriceCandle, Trade, TradeSide } from '@predgate/core';
import type { ClobBook, ClobLevel, DataTrade } from '../api/types.js';

function levels(raw: ClobLevel[] | null | undefined): OrderLevel[] {
  return (raw ?? []).map((level) => ({ price: toNumber(level.price) ?? Number.NaN, size: toNumber(level.size) ?? Number.NaN }));
}

/**
 * A CLOB `/book` answer. The wire lists both sides worst to best, so sorting
 * is left to core's normalizeOrderBook. `receivedAt` stands in for a missing
 * timestamp; `negRisk` fills in a missing `neg_risk` when the market is known.
 */
export function normalizeBook(book: ClobBook, receivedAt: number, negRisk?: boolean): OrderBook {
  const isNegRisk = typeof book.neg_risk === 'boolean' ? book.neg_risk : negRisk;
  return normalizeOrderBook(
    compact({
      bids: levels(book.bids),
      asks: levels(book.asks),
      timestamp: toEpochMs(book.timestamp) ?? receivedAt,
      isNegRisk,
      // `last_trade_price` is "" on books that never traded.
      lastTradePrice: toFraction(book.last_trade_price),
      sourceMetadata: pick(book, ['hash', 'tick_size', 'min_order_size', 'market', 'asset_id']),
    }),
  );
}

export function tradeSide(side: string | undefined): TradeSide {
  const lower = side?.toLowerCase();
  return lower === 'buy' || lower === 'sell' ? lower : 'unknown';
}

/**
 * A Data API tape row. The tape has no trade id and one transaction can hold
 * several fills, so the id joins the transaction with what tells its fills apart.
 */
export function normalizeTapeTrade(row: DataTrade): Trade | undefined {
  const timestamp = toEpochMs(row.timestamp);
  const price = toFraction(row.price);
  const amount = toNumber(row.size);
  if (timestamp === undefined || price === undefined || amount === undefined || amount <= 0 || !row.transactionHash) return undefined;
  return compact({
    id: [row.transactionHash, row.outcomeIndex ?? row.asset, row.side, row.size, row.price].join(':'),
    timestamp,
    price,
    amount,
    side: tradeSide(row.side),
    outcomeId: row.asset,
  });
}

/**
 * Candles from `/prices-history` samples: the venue sends prices only, so
 * each candle is the first, highest, lowest and last sample of its bucket
 * (buckets aligned to the Unix epoch). There is no volume to report.
 */
export function bucketCandles(samples: ReadonlyArray<{ t: number; p: number }>, stepMs: number): PriceCandle[] {
  const candles = new Map<number, PriceCandle>();
  const ordered = samples
    .map((sample) => ({ time: toEpochMs(sample.t), price: toFraction(sample.p) }))
    .filter((sample): sample is { time: number; price: number } => sample.time !== undefined && sample.price !== undefined)
    .sort((a, b) => a.time - b.time);
  for (const { time, price } of ordered) {
    const start = Math.floor(time / stepMs) * stepMs;
    const candle = candles.get(start);
    if (!candle) {
      candles.set(start, { timestamp: start, open: price, high: price, low: price, close: price });
    } else {
      candle.high = Math.max(candle.high, price);
      candle.low = Math.min(candle.low, price);
      candle.close = price;
    }
  }
  return [...candles.values()];
}
