import { PredgateError, bindContext, defineAdapter } from '@predgate/core';
import type { AdapterContext } from '@predgate/core';
import { fetchBalance, fetchPositions } from './account/balances.js';
import { fetchAllOrders, fetchClosedOrders, fetchOrder } from './account/history.js';
import { honouredOrderControls } from './account/order-action.js';
import { buildOrder, cancelOrder, createOrder, fetchMyTrades, fetchOpenOrders, submitOrder } from './account/orders.js';
import { hyperliquidApi } from './api/client.js';
import type { HyperliquidConfig } from './config.js';
import { venueId } from './venue.js';
import type { HyperliquidContext } from './context.js';
import { mapError } from './errors.js';
import { fetchEvents, fetchMarkets } from './reads/catalog.js';
import { fetchOHLCV, fetchOrderBook, fetchOrderBooks, fetchTrades } from './reads/market-data.js';
import { HyperliquidStream } from './streams/market-stream.js';

/**
 * Info requests weigh 2 (books, mids, account state) to 20 (most lists) of an
 * IP budget of 1,200 per minute; one request per 50 ms keeps a mix of them
 * inside it.
 */
const rateLimit = { requests: 20, intervalMs: 1_000 };

/** Hyperliquid's HIP-4 outcome markets: catalog, books, tape and candles from `info`, signed orders to `exchange`. */
export function createHyperliquidAdapter(context: AdapterContext, config: HyperliquidConfig) {
  const ctx: HyperliquidContext = {
    api: hyperliquidApi(context.http({ venue: venueId, rateLimit, mapError }), config.baseUrl),
    credentials: context.credentials,
    clock: context.clock,
    mainnet: !config.testnet,
    lastNonce: 0,
  };
  const stream = new HyperliquidStream({
    url: config.wsUrl,
    venue: venueId,
    clock: context.clock,
    pingIntervalMs: config.stream.pingIntervalMs,
    backoff: config.stream.backoff,
  });

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Hyperliquid',
      hosts: { rest: config.baseUrl },
      rateLimit,
      credentials: { required: [], optional: ['privateKey', 'walletAddress'] },
      orderControls: honouredOrderControls,
      unsupported: {
        fetchSeries: 'HIP-4 has no series: recurring markets are separate outcomes',
        fetchEventMetadata:
          'HIP-4 has no event-metadata endpoint: a question is one record of outcomeMeta, whose rules text is the event description and whose fallback and settled outcomes are in its sourceMetadata',
      },
    },
    // Streams: the l2Book and trades channels of one public connection per adapter instance.
    watchOrderBook: (outcomeId) => stream.watchOrderBook(outcomeId),
    watchTrades(outcomeId, address) {
      if (address !== undefined)
        throw new PredgateError('NOT_SUPPORTED', `${venueId}: watching a wallet's trades is not supported; watch the outcome`, { exchange: venueId });
      return stream.watchTrades(outcomeId);
    },
    close: () => stream.close(),
    ...bindContext(ctx, {
      fetchEvents,
      fetchMarkets,
      fetchOrderBook,
      fetchOrderBooks,
      fetchTrades,
      fetchOHLCV,
      fetchBalance,
      fetchPositions,
      fetchOpenOrders,
      fetchOrder,
      fetchClosedOrders,
      fetchAllOrders,
      fetchMyTrades,
      createOrder,
      buildOrder,
      submitOrder,
      cancelOrder,
    }),
  });
}
