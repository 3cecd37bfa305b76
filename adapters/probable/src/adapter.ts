import { bindContext, defineAdapter } from '@predgate/core';
import type { AdapterContext } from '@predgate/core';
import { randomInt } from 'node:crypto';
import { getAddress } from 'viem';
import { cancelOrder, createOrder, fetchOpenOrders, fetchOrder, buildOrder, submitOrder } from './account/orders.js';
import { fetchPositions } from './account/positions.js';
import { fetchMyTrades } from './account/trades.js';
import { probableApi } from './api/client.js';
import { ProbablePrivateApi } from './api/private.js';
import { ProbableAuthenticator } from './auth/api-keys.js';
import { chainId } from './auth/contracts.js';
import type { ProbableConfig } from './config.js';
import { venueId } from './venue.js';
import type { ProbableContext } from './context.js';
import { mapError } from './errors.js';
import { fetchEvents, fetchMarkets } from './reads/events.js';
import { fetchOHLCV } from './reads/ohlcv.js';
import { fetchOrderBook } from './reads/order-book.js';
import { ProbableStream } from './streams/book-stream.js';

const onlyOpenOrders = 'Probable lists open orders only; a filled or cancelled order is read by its id (fetchOrder)';

/** No limits are documented; lists are cached at the venue for minutes, and the price fan-out is the cost to bound. */
const rateLimit = { requests: 5, intervalMs: 1_000 };

/** Salts stay below 2^53, so the decimal text the venue reads is exact. */
const randomSalt = () => randomInt(1, 2 ** 47);

/**
 * Probable: events of binary markets from the market API, one book per
 * outcome token and price history from the order-book API, public
 * positions by address; with the caller's key, orders (EIP-712 on BNB Chain)
 * and the account's orders and fills (L2 HMAC).
 */
export function createProbableAdapter(context: AdapterContext, config: ProbableConfig) {
  const http = context.http({ venue: venueId, rateLimit, mapError });
  const auth = new ProbableAuthenticator(http, config.orderbookUrl, context.credentials, context.clock);
  const ctx: ProbableContext = {
    api: probableApi(http, { markets: config.marketsUrl, orderbook: config.orderbookUrl }),
    private: new ProbablePrivateApi(http, config.orderbookUrl, auth),
    credentials: context.credentials,
    clock: context.clock,
    exchange: getAddress(config.exchangeAddress.toLowerCase()),
    feeRateBps: config.feeRateBps,
    salt: randomSalt,
  };

  const stream = new ProbableStream({
    url: config.wsUrl,
    chainId,
    venue: venueId,
    clock: context.clock,
    pingIntervalMs: config.stream.pingIntervalMs,
    backoff: config.stream.backoff,
  });

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Probable',
      hosts: { markets: config.marketsUrl, orderbook: config.orderbookUrl },
      rateLimit,
      credentials: { required: [], optional: ['privateKey', 'apiKey', 'apiSecret', 'passphrase', 'signatureType', 'funderAddress'] },
      // The venue's own category names, by the normalised category each means: the catalog files its events by them.
      categoryWords: { Crypto: ['bitcoin'] },
      unsupported: {
        fetchSeries: 'Probable has no series endpoint (recurrence is only a list filter)',
        fetchBalance: 'Probable has no balance endpoint: the USDT balance is an on-chain read (BNB Chain) of the trading wallet',
        watchTrades: 'Probable streams no public trades (its websocket has book streams and private execution reports)',
        fetchClosedOrders: onlyOpenOrders,
        fetchAllOrders: onlyOpenOrders,
        fetchTrades:
          'Probable publishes no trade list per outcome: its public GET /trades takes no market or token filter (user, limit, side only), and GET /trade/56?tokenId= lists the caller’s own fills (fetchMyTrades)',
        fetchOrderBooks: 'not offered: books are read one token at a time (GET /book); call fetchOrderBook for each outcome',
        fetchEventMetadata: 'not offered: what Probable publishes about an event comes with it from fetchEvent',
      },
    },

    // Streams: one `book:<tokenId>` stream per watched token over one websocket per adapter instance.
    watchOrderBook: (outcomeId) => stream.watchOrderBook(outcomeId),
    close: () => stream.close(),

    ...bindContext(ctx, {
      fetchEvents,
      fetchMarkets,
      fetchOrderBook,
      fetchOHLCV,
      fetchPositions,
      buildOrder,
      submitOrder,
      createOrder,
      cancelOrder,
      fetchOrder,
      fetchOpenOrders,
      fetchMyTrades,
    }),
  });
}
