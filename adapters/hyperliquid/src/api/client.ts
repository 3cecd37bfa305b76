import { checkPayload } from '@predgate/core';
import type { VenueHttpClient } from '@predgate/core';
import type Joi from 'joi';
import {
  book,
  candles,
  exchangeAnswer,
  fills,
  frontendOpenOrders,
  historicalOrders,
  mids,
  openOrders,
  orderStatus,
  outcomeMeta,
  settlement,
  spotState,
  trades,
} from './schemas.js';
import type {
  ExchangeAnswer,
  OutcomeMeta,
  RawBook,
  RawCandle,
  RawFill,
  RawOpenOrder,
  RawOrderStatus,
  RawOrderWithStatus,
  RawSettlement,
  RawSpotBalance,
  RawTrade,
  RawVenueOrder,
} from './schemas.js';

/**
 * Hyperliquid's `info` endpoint (every read is a POST whose body's `type`
 * names the query) and its `exchange` endpoint (signed actions). Each answer
 * is checked against the members the adapter reads.
 */
export function hyperliquidApi(http: VenueHttpClient, baseUrl: string) {
  // Every info query is a read, safe to retry although it is a POST.
  const info = async <T>(schema: Joi.Schema, body: Record<string, unknown>, options: { exactIntegers?: boolean } = {}): Promise<T> =>
    checkPayload<T>(schema, await http.json({ method: 'POST', url: `${baseUrl}/info`, body, idempotent: true, ...options }), {
      venue: http.venue,
      endpoint: `POST /info ${String(body.type)}`,
    });

  return {
    outcomeMeta: () => info<OutcomeMeta>(outcomeMeta, { type: 'outcomeMeta' }),
    /** Mid prices of every coin, outcome sides keyed `#<10 × outcome + side>`. */
    allMids: () => info<Record<string, string>>(mids, { type: 'allMids' }),
    /** How an outcome settled; null while it has not. */
    settledOutcome: (outcome: number) => info<RawSettlement | null>(settlement, { type: 'settledOutcome', outcome }),
    l2Book: (coin: string) => info<RawBook>(book, { type: 'l2Book', coin }),
    /** Trade ids are 64-bit: one past 2^53 is read as its exact digits. */
    recentTrades: (coin: string) => info<RawTrade[]>(trades, { type: 'recentTrades', coin }, { exactIntegers: true }),
    candleSnapshot: (req: { coin: string; interval: string; startTime: number; endTime: number }) =>
      info<RawCandle[]>(candles, { type: 'candleSnapshot', req }),
    spotState: (user: string) => info<{ balances: RawSpotBalance[] }>(spotState, { type: 'spotClearinghouseState', user }),
    openOrders: (user: string) => info<RawOpenOrder[]>(openOrders, { type: 'openOrders', user }),
    /** Trade ids are 64-bit: one past 2^53 is read as its exact digits. */
    userFills: (user: string) => info<RawFill[]>(fills, { type: 'userFills', user }, { exactIntegers: true }),
    /** Open orders with their asked size, type and time in force. */
    frontendOpenOrders: (user: string) => info<RawVenueOrder[]>(frontendOpenOrders, { type: 'frontendOpenOrders', user }),
    /** The account's most recent orders (at most 2,000), each with its latest status. */
    historicalOrders: (user: string) => info<RawOrderWithStatus[]>(historicalOrders, { type: 'historicalOrders', user }),
    /** One order by its oid (a number) or client order id (`0x` and 32 hex digits). */
    orderStatus: (user: string, oid: number | string) => info<RawOrderStatus>(orderStatus, { type: 'orderStatus', user, oid }),
    /** A signed action; never retried (a retried order could trade twice). */
    exchange: async (body: Record<string, unknown>): Promise<ExchangeAnswer> =>
      checkPayload<ExchangeAnswer>(exchangeAnswer, await http.json({ method: 'POST', url: `${baseUrl}/exchange`, body }), {
        venue: http.venue,
        endpoint: 'POST /exchange',
      }),
  };
}

export type HyperliquidApi = ReturnType<typeof hyperliquidApi>;
