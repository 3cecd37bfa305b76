import { PredgateError, bookToDepth } from '@predgate/core';
import type { Clock, OHLCVParams, OrderBook, OrderBookParams, PriceCandle, Trade, TradesParams } from '@predgate/core';
import type { ClobPublicApi } from '../api/clob-public.js';
import type { DataApi } from '../api/data.js';
import { bucketCandles, normalizeBook, normalizeTapeTrade } from '../normalize/market-data.js';
import { normalizeMarket } from '../normalize/markets.js';
import { venueId } from '../venue.js';
import { isTokenId } from './identifiers.js';
import type { MarketLookup } from './lookup.js';

/** `POST /books` is limited by payload size (about 500 ids); smaller batches stay well inside it. */
const booksPerRequest = 200;
const defaultTrades = 100;
const defaultCandles = 100;
/** The Data API's largest page. */
const maxTapePage = 10_000;

/** Live books, the public trade tape and price candles, one outcome token at a time. */
export class MarketDataReads {
  constructor(
    private readonly clob: ClobPublicApi,
    private readonly data: DataApi,
    private readonly lookup: MarketLookup,
    private readonly clock: Clock,
  ) {}

  /**
   * The live book of one outcome token. With `outcome` (`yes`, `no` or a token
   * id) the first argument may be a market id, a condition id or the slug of a
   * one-market event (short-interval crypto markets).
   */
  async fetchOrderBook(id: string, limit?: number, params: OrderBookParams = {}): Promise<OrderBook> {
    const { tokenId, negRisk } = await this.resolveToken(id, params);
    const book = normalizeBook(await this.clob.book(tokenId), this.clock.now(), negRisk);
    return bookToDepth(book, limit ?? params.limit);
  }

  /** Books of several tokens, keyed by token id; tokens the venue has no book for are left out, as the venue does. */
  async fetchOrderBooks(outcomeIds: string[]): Promise<Record<string, OrderBook>> {
    const wanted = new Set(outcomeIds);
    const books: Record<string, OrderBook> = {};
    for (let index = 0; index < outcomeIds.length; index += booksPerRequest) {
      const answer = await this.clob.books(outcomeIds.slice(index, index + booksPerRequest));
      for (const raw of answer) {
        if (raw.asset_id && wanted.has(raw.asset_id)) books[raw.asset_id] = normalizeBook(raw, this.clock.now());
      }
    }
    return books;
  }

  /**
   * The Data API tape has no outcome filter: it is read by the token's market
   * (condition id) and the other outcome's rows are dropped, so twice `limit`
   * rows are asked for. `start`/`end` filter the rows returned.
   */
  async fetchTrades(outcomeId: string, params: TradesParams = {}): Promise<Trade[]> {
    const market = await this.lookup.byToken(outcomeId);
    if (!market?.conditionId) throw outcomeNotFound(outcomeId);
    const limit = params.limit ?? defaultTrades;
    const rows = await this.data.trades({ market: market.conditionId, limit: Math.min(limit * 2, maxTapePage), takerOnly: true });
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
  async fetchOHLCV(outcomeId: string, params: OHLCVParams): Promise<PriceCandle[]> {
    const minutes = resolutionMinutes(params.resolution);
    const step = minutes * 60_000;
    const end = params.end?.getTime() ?? this.clock.now();
    const count = params.limit ?? defaultCandles;
    const start = params.start?.getTime() ?? end - count * step;
    const history = await this.clob.pricesHistory({
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

  private async resolveToken(id: string, params: OrderBookParams): Promise<{ tokenId: string; negRisk?: boolean }> {
    const wanted = (params.outcome ?? params.side)?.toLowerCase();
    if (wanted !== undefined && isTokenId(wanted)) return { tokenId: wanted };
    // One book per token: a side names nothing more once the token is known.
    if (isTokenId(id)) return { tokenId: id };
    if (wanted === undefined) {
      throw new PredgateError('VALIDATION_ERROR', `${id} is not an outcome token id: choose its book with params.outcome (yes, no or a token id)`, {
        exchange: venueId,
        detail: { argument: 'params', path: 'params.outcome' },
      });
    }
    const { market, event } = await this.lookup.require(id);
    const unified = normalizeMarket(market, event);
    const outcome = wanted === 'yes' || wanted === 'up' ? unified.yes : wanted === 'no' || wanted === 'down' ? unified.no : undefined;
    if (!outcome) {
      throw new PredgateError('VALIDATION_ERROR', `Market ${id} has no "${wanted}" outcome: name it yes, no or by token id`, {
        exchange: venueId,
        detail: { argument: 'params', path: 'params.outcome' },
      });
    }
    return { tokenId: outcome.outcomeId, ...(market.negRisk === undefined ? {} : { negRisk: market.negRisk }) };
  }
}

function outcomeNotFound(outcomeId: string): PredgateError {
  return new PredgateError('OUTCOME_NOT_FOUND', `Outcome not found: ${outcomeId}`, { exchange: venueId, detail: { outcomeId } });
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
