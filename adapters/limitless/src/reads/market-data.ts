import {
  PredgateError,
  bookToDepth,
  createFeed,
  feedError,
  invalidArgument,
  invertBinaryBook,
  normalizeOrderBook,
  percentToFraction,
  roundTo,
  toEpochMs,
  toFraction,
  toNumber,
} from '@predgate/core';
import type { Feed, OHLCVParams, OrderBook, OrderBookParams, PriceCandle } from '@predgate/core';
import type { RawPriceSeries } from '../api/schemas.js';
import { unit, venueId } from '../venue.js';
import type { LimitlessContext } from '../context.js';
import { bookTarget } from './lookups.js';

const intervals: Record<string, string> = { '1h': '1h', '6h': '6h', '1d': '1d', '1w': '1w' };

/** One book per market, quoted on YES (pmxt once handed out that book for NO: a false 99% arbitrage); NO is its inversion. */
export async function fetchOrderBook(ctx: LimitlessContext, id: string, limit?: number, params: OrderBookParams = {}): Promise<OrderBook> {
  const { slug, side } = await bookTarget(ctx, id, params.outcome ?? params.side);
  const raw = await ctx.api.orderbook(slug);
  const level = (entry: { price: number | string; size: number | string }) => ({
    price: toNumber(entry.price)!,
    size: roundTo(toNumber(entry.size)! / unit, 6),
  });
  const yes = normalizeOrderBook({ bids: raw.bids.map(level), asks: raw.asks.map(level), timestamp: ctx.clock.now() });
  return bookToDepth(side === 'yes' ? yes : invertBinaryBook(yes), limit ?? params.limit);
}

/**
 * The live book of an outcome over the venue's websocket (one connection
 * per adapter instance): the id is resolved as `fetchOrderBook` resolves
 * it (a slug is its YES book, a token id its side), and the NO side gets
 * the inversion of the market's YES book.
 */
export function watchOrderBook(ctx: LimitlessContext, outcomeId: string): Feed<OrderBook> {
  return createFeed<OrderBook>((emit) => {
    let detach: (() => void) | undefined;
    let stopped = false;
    bookTarget(ctx, outcomeId, undefined).then(
      ({ slug, side }) => {
        if (!stopped) detach = ctx.stream.attach(slug, side, emit);
      },
      (error: unknown) => {
        if (!stopped) emit.error(feedError(error, venueId));
      },
    );
    return () => {
      stopped = true;
      detach?.();
    };
  });
}

/**
 * Price points of a market (hourly), as flat candles; NO is one minus YES.
 * The venue answers one series, or for a group one per child market (the
 * child's own is read). A series sent in percent (any point above 1) is read
 * as percent throughout; a point without a time (`0`) is left out.
 */
export async function fetchOHLCV(ctx: LimitlessContext, outcomeId: string, params: OHLCVParams): Promise<PriceCandle[]> {
  const interval = intervals[params.resolution];
  if (!interval)
    throw invalidArgument(
      'params.resolution',
      `${venueId} price history comes at ${Object.keys(intervals).join(', ')}; "${params.resolution}" is not one of them`,
    );
  const { slug, side } = await bookTarget(ctx, outcomeId, undefined);
  const { prices } = seriesOf(await ctx.api.historicalPrice(slug, interval), slug);
  const values = prices.map((point) => toNumber(point.price)!);
  const percent = values.some((value) => value > 1);
  const start = params.start?.getTime() ?? -Infinity;
  const end = params.end?.getTime() ?? Infinity;
  const candles = prices
    .flatMap((point, index) => {
      const timestamp = toEpochMs(point.timestamp);
      if (timestamp === undefined) return [];
      const yes = (percent ? percentToFraction(values[index]) : toFraction(values[index]))!;
      const price = side === 'yes' ? yes : roundTo(1 - yes, 6);
      return [{ timestamp, open: price, high: price, low: price, close: price, volume: 0 }];
    })
    .filter((candle) => candle.timestamp >= start && candle.timestamp <= end)
    .sort((a, b) => a.timestamp - b.timestamp);
  return params.limit === undefined ? candles : candles.slice(-params.limit);
}

/** The market's own series: the answer itself, or from a group's answer the child's (by slug; a lone series is the market's). */
function seriesOf(answer: RawPriceSeries | RawPriceSeries[], slug: string): RawPriceSeries {
  if (!Array.isArray(answer)) return answer;
  const series = answer.find((entry) => entry.slug === slug) ?? (answer.length === 1 ? answer[0] : undefined);
  if (!series) {
    throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venueId} answered GET /markets/{slug}/historical-price without a series for ${slug.slice(0, 100)}`, {
      exchange: venueId,
      detail: { endpoint: 'GET /markets/{slug}/historical-price', field: 'slug', drift: true },
    });
  }
  return series;
}
