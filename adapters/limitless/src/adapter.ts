import { bindContext, defineAdapter, missingCredentials } from '@predgate/core';
import type { AdapterContext, CreateOrderParams } from '@predgate/core';
import { randomInt } from 'node:crypto';
import { buildOrder, createOrder, honouredOrderControls, submitOrder } from './account/built-order.js';
import { cancelOrder, fetchAllOrders, fetchClosedOrders, fetchOpenOrders, fetchOrder } from './account/orders.js';
import { fetchPositions } from './account/positions.js';
import { fetchMyTrades } from './account/trades.js';
import { limitlessApi } from './api/client.js';
import type { Signed } from './api/client.js';
import { authHeaders } from './auth/hmac.js';
import type { LimitlessConfig } from './config.js';
import { venueId } from './venue.js';
import type { LimitlessContext } from './context.js';
import { mapError } from './errors.js';
import { fetchEvents } from './reads/events.js';
import { fetchOHLCV, fetchOrderBook, watchOrderBook } from './reads/market-data.js';
import { fetchMarkets } from './reads/markets.js';
import { LimitlessStream } from './streams/market-stream.js';

/** What tests may fix that is random in production. */
export interface LimitlessOptions {
  /** Order salts (random 47-bit integers). */
  salt?: () => bigint;
}

/** Documented per token: at most 2 concurrent requests, at least 300 ms apart. */
const rateLimit = { requests: 3, intervalMs: 1_000, burst: 1 };

/**
 * Limitless Exchange: CLOB markets (single, or children of a NegRisk group)
 * with one YES-quoted book each, and legacy AMM markets, listed with their
 * prices but without books. Authenticated calls use a scoped token (HMAC) or
 * a legacy key; orders are EIP-712 signed on Base with `privateKey`.
 */
export function createLimitlessAdapter(context: AdapterContext, config: LimitlessConfig, options: LimitlessOptions = {}) {
  const api = limitlessApi(context.http({ venue: venueId, rateLimit, mapError }), config.baseUrl);
  const stream = new LimitlessStream({
    url: config.ws,
    venue: venueId,
    clock: context.clock,
    pingIntervalMs: config.stream.pingIntervalMs,
    backoff: config.stream.backoff,
  });
  const sign: Signed = (method, path, body) => {
    const apiKey = context.credentials?.apiKey;
    if (!apiKey) throw missingCredentials(venueId, ['apiKey']);
    return authHeaders({ apiKey, apiSecret: context.credentials?.apiSecret }, method, path, body, context.clock.now());
  };
  const ctx: LimitlessContext = {
    api,
    clock: context.clock,
    credentials: context.credentials,
    sign,
    stream,
    salt: options.salt ?? (() => BigInt(randomInt(1, 2 ** 47))),
    bookOfToken: new Map(),
    outcomesOfMarket: new Map(),
    marketOfOrder: new Map(),
  };

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Limitless',
      hosts: { rest: config.baseUrl, ws: config.ws },
      rateLimit: { requests: rateLimit.requests, intervalMs: rateLimit.intervalMs },
      credentials: { required: [], optional: ['apiKey', 'apiSecret', 'privateKey', 'funderAddress'] },
      // The venue's own category names, by the normalised category each means: the catalog files its events by them.
      categoryWords: { Crypto: ['ethereum'] },
      orderControls: honouredOrderControls,
      unsupported: {
        fetchTrades: 'Limitless has no public trade tape endpoint',
        watchTrades: 'Limitless streams no public trades (its websocket pushes books, AMM prices and the account’s own fills)',
        fetchSeries: 'Limitless has no series',
        fetchEventMetadata: 'not offered: what Limitless publishes about a market comes with it from fetchEvent',
        fetchOrderBooks: 'Limitless serves one market’s book per request (GET /markets/{slug}/orderbook): call fetchOrderBook for each outcome',
        fetchBalance:
          'Limitless has no balance endpoint: USDC sits in the wallet on Base (an on-chain balanceOf read); the API reports only collateral locked per market',
      },
    },
    // The venue looks orders up per market only: one order is found in its market's list.
    emulated: ['fetchOrder'],

    ...bindContext(ctx, {
      fetchEvents,
      fetchMarkets,
      fetchOrderBook,
      watchOrderBook,
      fetchOHLCV,
      fetchOpenOrders,
      fetchClosedOrders,
      fetchAllOrders,
      fetchOrder,
      cancelOrder,
      fetchPositions,
      fetchMyTrades,
      createOrder,
      buildOrder: (ctx: LimitlessContext, params: CreateOrderParams) => buildOrder(ctx, params),
      submitOrder,
    }),
    close: () => stream.close(),
  });
}
