import { PredgateError, bookToDepth, invalidArgument, isPredgateError, normalizeOrderBook, reportDrift, resolutionMs, toNumber } from '@predgate/core';
import type { OHLCVParams, OrderBook, OrderBookParams, PriceCandle, Trade, TradesParams } from '@predgate/core';
import type { RawLevel } from '../api/schemas.js';
import { venueId } from '../venue.js';
import type { HyperliquidContext } from '../context.js';
import { coinOf, outcomeOfMarketId, sideOfAssetId } from '../ids.js';
import type { Side } from '../ids.js';

/* Market data is per side coin (`#<10 × outcome + side>`). */

const defaultTrades = 100;
const defaultCandles = 100;
/** The venue keeps at most this many candles per coin and interval. */
const maxCandles = 5_000;
const intervals = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '8h', '12h', '1d', '3d', '1w', '1M'];

/**
 * The live book of one side. With `outcome` (`yes`, `no` or an outcome id)
 * or `side`, the first argument may be the market (outcome) id; `yes` is the
 * first side the venue lists, whatever its name.
 */
export async function fetchOrderBook(ctx: HyperliquidContext, id: string, limit?: number, params: OrderBookParams = {}): Promise<OrderBook> {
  const side = sideOf(id, params.outcome ?? params.side);
  const raw = await ctx.api.l2Book(coinOf(side));
  const level = (entry: RawLevel) => ({ price: toNumber(entry.px)!, size: toNumber(entry.sz)! });
  const book = normalizeOrderBook({ bids: raw.levels[0].map(level), asks: raw.levels[1].map(level), timestamp: raw.time });
  return bookToDepth(book, limit ?? params.limit);
}

/**
 * The books of several sides, keyed by outcome id: one `l2Book` each (the
 * venue has no batch book query), asked together. A book whose answer cannot
 * be read is left out and reported as drift naming the outcome; the others
 * are served.
 */
export async function fetchOrderBooks(ctx: HyperliquidContext, outcomeIds: string[]): Promise<Record<string, OrderBook>> {
  const ids = [...new Set(outcomeIds)];
  ids.forEach((id) => sideOf(id));
  const books = await Promise.all(
    ids.map(async (id) => {
      try {
        return [id, await fetchOrderBook(ctx, id)] as const;
      } catch (error) {
        if (!isPredgateError(error) || error.detail?.drift !== true) throw error;
        reportDrift(new PredgateError(error.code, error.message, { exchange: venueId, detail: { ...error.detail, item: id } }));
        return undefined;
      }
    }),
  );
  return Object.fromEntries(books.filter((entry) => entry !== undefined));
}

/** The venue's recent tape of one side (a fixed-size page, newest first; no cursor exists). */
export async function fetchTrades(ctx: HyperliquidContext, outcomeId: string, params: TradesParams = {}): Promise<Trade[]> {
  const side = sideOf(outcomeId);
  const start = params.start?.getTime() ?? -Infinity;
  const end = params.end?.getTime() ?? Infinity;
  const rows = await ctx.api.recentTrades(coinOf(side));
  return rows
    .map((row) => ({
      id: String(row.tid),
      timestamp: row.time,
      price: toNumber(row.px)!,
      amount: toNumber(row.sz)!,
      side: row.side === 'B' ? ('buy' as const) : ('sell' as const),
      outcomeId,
    }))
    .filter((trade) => trade.timestamp >= start && trade.timestamp <= end)
    .sort((a, b) => b.timestamp - a.timestamp)
    .slice(0, params.limit ?? defaultTrades);
}

/** Candles of one side at one of the venue's intervals; without `start`, the `limit` candles before `end` (now). */
export async function fetchOHLCV(ctx: HyperliquidContext, outcomeId: string, params: OHLCVParams): Promise<PriceCandle[]> {
  const side = sideOf(outcomeId);
  if (!intervals.includes(params.resolution)) {
    throw invalidArgument('params.resolution', `hyperliquid candles come at ${intervals.join(', ')}; "${params.resolution}" is not one of them`);
  }
  const step = params.resolution === '1M' ? 30 * 86_400_000 : resolutionMs(params.resolution);
  const count = Math.min(params.limit ?? defaultCandles, maxCandles);
  const end = params.end?.getTime() ?? ctx.clock.now();
  const start = params.start?.getTime() ?? end - count * step;
  const rows = await ctx.api.candleSnapshot({ coin: coinOf(side), interval: params.resolution, startTime: start, endTime: end });
  const candles = rows
    .map((row) => ({
      timestamp: row.t,
      open: toNumber(row.o)!,
      high: toNumber(row.h)!,
      low: toNumber(row.l)!,
      close: toNumber(row.c)!,
      volume: toNumber(row.v)!,
    }))
    .sort((a, b) => a.timestamp - b.timestamp);
  if (params.limit === undefined) return candles;
  return params.start ? candles.slice(0, count) : candles.slice(-count);
}

/** The side an outcome id names, or a market id with `yes`/`no`/an outcome id of it. */
function sideOf(id: string, wanted?: string): Side {
  const named = wanted === undefined ? undefined : sideOfAssetId(wanted);
  if (named) return named;
  const side = sideOfAssetId(id);
  if (side) return side;
  const outcome = outcomeOfMarketId(id);
  if (outcome !== undefined && (wanted === 'yes' || wanted === 'no')) return { outcome, side: wanted === 'yes' ? 0 : 1 };
  if (outcome !== undefined) {
    throw invalidArgument('params.outcome', `${id} is a market id: choose its book with params.outcome (yes, no or an outcome id)`);
  }
  throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome not found: ${id.slice(0, 100)}`, { detail: { outcomeId: id.slice(0, 100) } });
}
