import { bindContext, defineAdapter } from '@predgate/core';
import type { AdapterContext } from '@predgate/core';
import {
  buildOrder,
  cancelOrder,
  createOrder,
  fetchAllOrders,
  fetchClosedOrders,
  fetchOpenOrders,
  fetchOrder,
  honouredOrderControls,
  submitOrder,
} from './account/orders.js';
import { fetchPositions } from './account/positions.js';
import { geminiApi } from './api/client.js';
import { signerOf } from './auth/signer-of.js';
import type { GeminiTitanConfig } from './config.js';
import { credentialMembers, venueId } from './venue.js';
import type { GeminiContext } from './context.js';
import { mapError } from './errors.js';
import { fetchEvents } from './reads/events.js';
import { fetchOHLCV, fetchOrderBook, fetchTrades } from './reads/market-data.js';
import { fetchMarkets } from './reads/markets.js';
import { fetchSeries } from './reads/series.js';
import { watchOrderBook, watchTrades } from './reads/watch.js';
import { GeminiStream } from './streams/market-stream.js';

/** Public endpoints allow 120 requests a minute; private ones 600, on a budget of their own at the venue. */
const rateLimit = { requests: 120, intervalMs: 60_000 };

/**
 * Gemini Predictions: public events, books, trades and candles; orders and
 * positions over HMAC-signed private calls. Each contract is one book quoted
 * on YES; the NO book is its mirror.
 */
export function createGeminiTitanAdapter(context: AdapterContext, config: GeminiTitanConfig) {
  const api = geminiApi(context.http({ venue: venueId, rateLimit, mapError }), config.baseUrl, signerOf(context.credentials, context.clock));
  const stream = new GeminiStream({
    url: config.wsUrl,
    venue: venueId,
    clock: context.clock,
    depth: config.stream.depth,
    pingIntervalMs: config.stream.pingIntervalMs,
    backoff: config.stream.backoff,
  });
  const ctx: GeminiContext = { api, clock: context.clock, stream, eventOfSymbol: new Map() };

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Gemini Predictions',
      hosts: { rest: config.baseUrl },
      rateLimit,
      credentials: { required: credentialMembers, optional: [] },
      // The venue's own category names, by the normalised category each means: the catalog files its events by them.
      categoryWords: { Politics: ['world'], Science: ['weather'], Sports: ['nfl'] },
      orderControls: honouredOrderControls,
      unsupported: {
        fetchBalance: 'Gemini documents no balance read for prediction-market accounts',
        fetchMyTrades: 'Gemini has no fills read for prediction markets; fills show on the orders (fetchClosedOrders)',
        fetchOrderBooks:
          'Gemini has no batch book read, and its public budget (120 requests a minute) would be spent one book per contract: fetch each with fetchOrderBook or watch them',
        fetchEventMetadata: 'Gemini has no event metadata endpoint; what an event carries (type, series, status) is in its sourceMetadata',
      },
    },
    /** Gemini has no series endpoint: series are gathered from the events that name them. */
    emulated: ['fetchSeries'],
    ...bindContext(ctx, {
      fetchEvents,
      fetchMarkets,
      fetchSeries,
      fetchOrderBook,
      fetchTrades,
      fetchOHLCV,
      watchOrderBook,
      watchTrades,
      fetchOpenOrders,
      fetchClosedOrders,
      fetchAllOrders,
      fetchOrder,
      fetchPositions,
      buildOrder,
      submitOrder,
      createOrder,
      cancelOrder,
    }),
    close: () => stream.close(),
  });
}
