import { bindContext, defineAdapter } from '@predgate/core';
import type { AdapterContext } from '@predgate/core';
import { fetchBalance, fetchMyTrades, fetchPositions } from './account/wallet.js';
import { rainApi } from './api/client.js';
import type { RainConfig } from './config.js';
import { venueId } from './venue.js';
import type { RainContext } from './context.js';
import { mapError } from './errors.js';
import { fetchEvent, fetchEvents, fetchMarket, fetchMarkets } from './reads/catalog.js';
import { fetchOHLCV, fetchTrades, watchTrades } from './reads/trades.js';
import { RainStream } from './streams/pool-stream.js';

/** Rain publishes no limit; pmxt kept 4 requests a second, and public Arbitrum RPCs throttle bursts. */
const rateLimit = { requests: 4, intervalMs: 1_000 };

const wallet =
  'a Rain trade is an Arbitrum transaction the user’s own wallet signs and sends to the pool contract (enterOption, placeBuyOrder, placeSellOrder); Rain has no API that executes orders';

const noBook =
  'Rain’s contracts expose only the best resting bid and ask price per option (firstBuyOrderPrice, firstSellOrderPrice); the size at each price is not readable from a documented call, so no book with sizes can be built';

const noOrders =
  'Rain has no public order read: its REST API lists a wallet’s orders per pool only to a session signed in with the wallet’s own key, and the subgraph records order events, not order state';

/**
 * Rain: permissionless prediction pools on Arbitrum One. Metadata comes from
 * the REST API, prices and pool totals from the chain, history from the
 * subgraph. Each pool is one event holding one market of all its options.
 */
export function createRainAdapter(context: AdapterContext, config: RainConfig) {
  const origins = { subgraphOrigin: new URL(config.subgraphUrl).origin, rpcOrigin: new URL(config.rpcUrl).origin };
  const http = context.http({ venue: venueId, rateLimit, mapError: (failure) => mapError(failure, origins) });
  const ctx: RainContext = {
    api: rainApi(http, { rest: config.baseUrl, rpc: config.rpcUrl, subgraph: config.subgraphUrl }),
    credentials: context.credentials,
    subgraphApiKey: config.subgraphApiKey,
    stream: new RainStream({
      url: config.ws,
      venue: venueId,
      clock: context.clock,
      pingIntervalMs: config.stream.pingIntervalMs,
      backoff: config.stream.backoff,
    }),
  };

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Rain',
      hosts: { rest: config.baseUrl, rpc: config.rpcUrl, subgraph: config.subgraphUrl, ws: config.ws },
      rateLimit,
      credentials: { required: [], optional: ['apiKey', 'walletAddress', 'funderAddress'] },
      // The venue's own category names, by the normalised category each means: the catalog files its events by them.
      categoryWords: { Culture: ['movies'] },
      unsupported: {
        fetchSeries: 'Rain has no series',
        fetchEventMetadata: 'Rain has no metadata endpoint beyond the pool itself',
        fetchOrderBook: noBook,
        fetchOrderBooks: noBook,
        watchOrderBook: noBook,
        watchOrderBooks: noBook,
        fetchOrder: noOrders,
        fetchOpenOrders: noOrders,
        fetchClosedOrders: noOrders,
        fetchAllOrders: noOrders,
        createOrder: wallet,
        buildOrder: wallet,
        submitOrder: wallet,
        cancelOrder: 'cancelling a Rain limit order is an Arbitrum transaction the order’s own wallet signs and sends (cancelBuyOrders, cancelSellOrders)',
      },
    },
    close: () => ctx.stream.close(),
    ...bindContext(ctx, {
      fetchEvents,
      fetchMarkets,
      fetchEvent,
      fetchMarket,
      fetchTrades,
      watchTrades,
      fetchMyTrades,
      fetchPositions,
      fetchBalance,
      fetchOHLCV,
    }),
  });
}
