import { bookToDepth, invalidArgument, invertBinaryBook, normalizeOrderBook, toNumber } from '@predgate/core';
import type { OHLCVParams, OrderBook, OrderBookParams, PriceCandle, Trade, TradesParams } from '@predgate/core';
import type { RawLevel } from '../api/schemas.js';
import { venueId } from '../venue.js';
import type { GeminiContext } from '../context.js';
import { outcomeIdOf, sideOfOutcomeId } from '../ids.js';

const timeFrames: Record<string, string> = { '1m': '1m', '5m': '5m', '15m': '15m', '30m': '30m', '1h': '1hr', '6h': '6hr', '1d': '1day' };

function contractSide(id: string, wanted?: string): { symbol: string; side: 'yes' | 'no' } {
  const named = sideOfOutcomeId(wanted ?? '') ?? sideOfOutcomeId(id);
  if (named) return named;
  if (wanted === 'yes' || wanted === 'no') return { symbol: id, side: wanted };
  throw invalidArgument(
    'params.outcome',
    `${id.slice(0, 100)} is a contract symbol: choose its book with params.outcome (yes or no) or give an outcome id (<symbol>:yes)`,
  );
}

export async function fetchOrderBook(ctx: GeminiContext, id: string, limit?: number, params: OrderBookParams = {}): Promise<OrderBook> {
  const { symbol, side } = contractSide(id, params.outcome ?? params.side);
  const raw = await ctx.api.book(symbol);
  const level = (entry: RawLevel) => ({ price: toNumber(entry.price)!, size: toNumber(entry.amount)! });
  const yes = normalizeOrderBook({ bids: raw.bids.map(level), asks: raw.asks.map(level), timestamp: ctx.clock.now() });
  return bookToDepth(side === 'yes' ? yes : invertBinaryBook(yes), limit ?? params.limit);
}

export async function fetchTrades(ctx: GeminiContext, outcomeId: string, params: TradesParams = {}): Promise<Trade[]> {
  const { symbol, side } = contractSide(outcomeId);
  const rows = await ctx.api.trades(symbol, Math.min(params.limit ?? 50, 500));
  const start = params.start?.getTime() ?? -Infinity;
  const end = params.end?.getTime() ?? Infinity;
  // The tape is YES's: a YES buy at p is a NO sell at 1 − p.
  return rows
    .map((row) => {
      const price = toNumber(row.price)!;
      const yesSide = row.type;
      return {
        id: String(row.tid),
        timestamp: row.timestampms,
        price: side === 'yes' ? price : Math.round((1 - price) * 100) / 100,
        amount: toNumber(row.amount)!,
        side: side === 'yes' ? yesSide : yesSide === 'buy' ? ('sell' as const) : ('buy' as const),
        outcomeId: outcomeIdOf(symbol, side),
      };
    })
    .filter((trade) => trade.timestamp >= start && trade.timestamp <= end)
    .slice(0, params.limit ?? 50);
}

export async function fetchOHLCV(ctx: GeminiContext, outcomeId: string, params: OHLCVParams): Promise<PriceCandle[]> {
  const { symbol, side } = contractSide(outcomeId);
  const timeFrame = timeFrames[params.resolution];
  if (!timeFrame)
    throw invalidArgument('params.resolution', `${venueId} candles come at ${Object.keys(timeFrames).join(', ')}; "${params.resolution}" is not one of them`);
  const start = params.start?.getTime() ?? -Infinity;
  const end = params.end?.getTime() ?? Infinity;
  const flip = (value: number) => Math.round((1 - value) * 100) / 100;
  const candles = (await ctx.api.candles(symbol, timeFrame))
    .map(([timestamp, open, high, low, close, volume]) =>
      side === 'yes'
        ? { timestamp, open, high, low, close, volume }
        : { timestamp, open: flip(open), high: flip(low), low: flip(high), close: flip(close), volume },
    )
    .filter((candle) => candle.timestamp >= start && candle.timestamp <= end)
    .sort((a, b) => a.timestamp - b.timestamp);
  return params.limit === undefined ? candles : candles.slice(-params.limit);
}
