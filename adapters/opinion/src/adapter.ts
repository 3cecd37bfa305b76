import { PredgateError, defineAdapter, invalidArgument } from '@predgate/core';
import type { AdapterContext } from '@predgate/core';
import type { Address } from 'viem';
import { marketTokens } from './account/market-tokens.js';
import { accountReads } from './account/reads.js';
import { trading } from './account/trading.js';
import { opinionApi } from './api/client.js';
import type { OpinionConfig } from './config.js';
import { venue } from './venue.js';
import { mapError } from './errors.js';
import { catalogReads } from './reads/catalog.js';
import { marketDataReads } from './reads/market-data.js';
import { OpinionStream } from './streams/market-stream.js';

/** Opinion documents 15 requests per second per API key. */
const rateLimit = { requests: 15, intervalMs: 1_000 };

export function createOpinionAdapter(context: AdapterContext, config: OpinionConfig) {
  const http = context.http({ venue, rateLimit, mapError });
  const hosts = { api: config.baseUrl, trading: config.tradingUrl };
  // Public data may be read with the operator's key; the account's orders are those of the key's owner, so account
  // and trading calls use the caller's own key only, never the operator's.
  const api = opinionApi(http, hosts, context.credentials?.apiKey ?? config.apiKey);
  const accountApi = opinionApi(http, hosts, context.credentials?.apiKey);
  const catalog = catalogReads(api);
  const marketData = marketDataReads(api, catalog, context.clock);
  const tokens = marketTokens(api, context.clock);
  const account = accountReads(accountApi, tokens, context.credentials);
  const orders = trading(accountApi, tokens, account, context.credentials, config.exchangeAddress as Address, context.clock);
  const stream = new OpinionStream({
    url: config.wsUrl,
    venue,
    apiKey: context.credentials?.apiKey ?? config.apiKey,
    clock: context.clock,
    pingIntervalMs: config.stream.pingIntervalMs,
    backoff: config.stream.backoff,
    // Opinion's channels are subscribed by market: a market id names its YES token, a token is found in the listing.
    async locate(outcomeId) {
      if (/^\d{1,15}$/.test(outcomeId)) {
        const market = await catalog.marketById(outcomeId);
        return { tokenId: market.outcomes[0]!.outcomeId, marketId: market.marketId };
      }
      if (!/^\d{1,80}$/.test(outcomeId)) throw invalidArgument('outcomeId', `"outcomeId" must be an Opinion token id (a decimal integer), got "${outcomeId}"`);
      const [market] = await catalog.fetchMarkets({ outcomeId, limit: 1 });
      if (!market) throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome not found on ${venue}: ${outcomeId}`, { exchange: venue, detail: { outcomeId } });
      return { tokenId: outcomeId, marketId: market.marketId };
    },
    snapshot: (tokenId) => marketData.fetchOrderBook(tokenId),
  });

  return defineAdapter({
    id: venue,
    profile: {
      displayName: 'Opinion',
      hosts: { rest: config.baseUrl, trading: config.tradingUrl },
      rateLimit,
      credentials: { required: ['apiKey'], optional: ['privateKey', 'funderAddress'] },
      // The venue's own category names, by the normalised category each means: the catalog files its events by them.
      categoryWords: { Sports: ['esports'], Economics: ['macro'] },
      unsupported: {
        fetchTrades: 'Opinion has no public trade tape over REST (trades come only over its websocket)',
        fetchSeries: 'Opinion has no series',
        fetchBalance: 'Opinion reports no balance over its API; balances are on chain, at the account’s Safe',
        fetchEventMetadata: 'not offered: what Opinion publishes about a market (rules, resolution) comes with it from fetchEvent',
      },
    },
    // Opinion has no batch book endpoint: several books are read one by one.
    emulated: ['fetchOrderBooks'],

    fetchEvents: (params) => catalog.fetchEvents(params),
    fetchEvent: (params) => catalog.fetchEvent(params),
    fetchMarkets: (params) => catalog.fetchMarkets(params),
    fetchMarket: (params) => catalog.fetchMarket(params),

    fetchOrderBook: (outcomeId, limit, params) => marketData.fetchOrderBook(outcomeId, limit, params),
    fetchOrderBooks: (outcomeIds) => marketData.fetchOrderBooks(outcomeIds),
    fetchOHLCV: (outcomeId, params) => marketData.fetchOHLCV(outcomeId, params),

    fetchOpenOrders: (marketId) => account.fetchOpenOrders(marketId),
    fetchClosedOrders: (params) => account.fetchClosedOrders(params),
    fetchAllOrders: (params) => account.fetchAllOrders(params),
    fetchOrder: (orderId) => account.fetchOrder(orderId),
    fetchMyTrades: (params) => account.fetchMyTrades(params),
    fetchPositions: (address) => account.fetchPositions(address),

    buildOrder: (params) => orders.buildOrder(params),
    submitOrder: (built) => orders.submitOrder(built),
    createOrder: (params) => orders.createOrder(params),
    cancelOrder: (orderId) => orders.cancelOrder(orderId),

    // Streams: the market.depth.diff and market.last.trade channels of one connection per adapter instance.
    watchOrderBook: (outcomeId) => stream.watchOrderBook(outcomeId),
    watchTrades(outcomeId, address) {
      if (address !== undefined)
        throw new PredgateError('NOT_SUPPORTED', `${venue}: watching a wallet's trades is not supported; watch the outcome`, { exchange: venue });
      return stream.watchTrades(outcomeId);
    },
    close: () => stream.close(),
  });
}
