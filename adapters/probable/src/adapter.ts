import {
  PredgateError,
  bookToDepth,
  bucketCandles,
  defineAdapter,
  eventListPredicate,
  invalidArgument,
  isPredgateError,
  marketListPredicate,
  normalizeOrderBook,
  notSupported,
  resolutionMs,
  toEpochMs,
  toNumber,
} from '@predgate/core';
import type { AdapterContext, Event, EventFetchParams, Market, StatusFilter, VenueFailure } from '@predgate/core';
import { bindContext, mapVenueFailure, venueMessageOf } from '@predgate/core';
import { randomInt } from 'node:crypto';
import { getAddress } from 'viem';
import { cancelOrder, createOrder, fetchOpenOrders, fetchOrder, buildOrder, submitOrder } from './account/orders.js';
import type { OrdersContext } from './account/orders.js';
import { rejectionCode } from './account/errors.js';
import { ProbablePrivateApi } from './account/private-api.js';
import { fetchMyTrades } from './account/trades.js';
import { probableApi } from './api.js';
import { ProbableAuthenticator } from './auth/api-keys.js';
import type { RawEvent, RawMarket } from './api.js';
import type { ProbableConfig } from './index.js';
import { normalizeEvent, normalizeMarket, outcomeTokens, venueId } from './normalize.js';
import type { Mids } from './normalize.js';
import { chainId } from './auth/contracts.js';
import { ProbableStream } from './streams/book-stream.js';

/** No limits are documented; lists are cached at the venue for minutes, and the price fan-out is the cost to bound. */
const rateLimit = { requests: 5, intervalMs: 1_000 };
const pageSize = 100;
const defaultLimit = 20;

/**
 * The market API reports "not found" as 404, 400 or 500 with those words; the
 * order-book API's private calls answer `{error: {code: "PAS-…", message}}`.
 */
function mapError(failure: VenueFailure) {
  const message = venueMessageOf(failure.body) ?? '';
  const venueCode = venueErrorCode(failure.body);
  const orderPath = /\/orders?\/\d+\/\d+/.test(failure.path);
  // A 404 is about what was asked for ("api key not found" included), never about the caller's key.
  if (failure.status >= 400 && failure.status < 500 && failure.status !== 404 && failure.status !== 429) {
    const code = rejectionCode(`${venueCode ?? ''} ${message}`);
    if (code === 'AUTHENTICATION_ERROR') return mapVenueFailure(failure, { code, ...(venueCode ? { detail: { venueCode } } : {}) });
    if (failure.method === 'POST' && /\/order\/\d+$/.test(failure.path) && failure.status !== 401 && failure.status !== 403) {
      return mapVenueFailure(failure, { code: code ?? 'INVALID_ORDER', ...(venueCode ? { detail: { venueCode } } : {}) });
    }
    if (code === 'INSUFFICIENT_FUNDS') return mapVenueFailure(failure, { code });
  }
  if (failure.status === 404 || (/not found/i.test(message) && (failure.status === 400 || failure.status === 500))) {
    return mapVenueFailure(failure, {
      code: orderPath
        ? 'ORDER_NOT_FOUND'
        : failure.path.includes('/events')
          ? 'EVENT_NOT_FOUND'
          : failure.path.includes('/markets')
            ? 'MARKET_NOT_FOUND'
            : 'NOT_FOUND',
    });
  }
  return undefined;
}

/** The order-book API's own error code (`PAS-4008`), where it sends one. */
function venueErrorCode(body: unknown): string | undefined {
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code.slice(0, 40) : undefined;
}

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
  const api = probableApi(http, { markets: config.marketsUrl, orderbook: config.orderbookUrl });
  const auth = new ProbableAuthenticator(http, config.orderbookUrl, context.credentials, context.clock);
  const orders: OrdersContext = {
    api,
    private: new ProbablePrivateApi(http, config.orderbookUrl, auth),
    credentials: context.credentials,
    clock: context.clock,
    exchange: getAddress(config.exchangeAddress.toLowerCase()),
    feeRateBps: config.feeRateBps,
    salt: randomSalt,
  };

  /** Midpoints of the first outcome of each market; a token the venue has no midpoint for stays unknown. */
  const midsOf = async (markets: readonly RawMarket[]): Promise<Mids> => {
    const mids: Mids = new Map();
    for (const market of markets) {
      const [first] = outcomeTokens(market);
      if (!first || first.price != null || first.winner != null) continue;
      const answer = await api.midpoint(first.tokenId).catch((error: unknown) => {
        if (isPredgateError(error) && (error.code === 'NOT_FOUND' || error.code === 'EXCHANGE_NOT_AVAILABLE')) return undefined;
        throw error;
      });
      const mid = toNumber(answer?.mid);
      if (mid !== undefined && mid >= 0 && mid <= 1) mids.set(first.tokenId, mid);
    }
    return mids;
  };
  const toEvents = async (raws: RawEvent[]) => {
    const mids = await midsOf(raws.flatMap((raw) => raw.markets ?? []));
    return raws.map((raw) => normalizeEvent(raw, mids));
  };
  const orNothing = async <T>(request: Promise<T>): Promise<T | undefined> => {
    try {
      return await request;
    } catch (error) {
      if (isPredgateError(error) && (error.code === 'EVENT_NOT_FOUND' || error.code === 'MARKET_NOT_FOUND')) return undefined;
      throw error;
    }
  };

  const selectEvents = async (params: Omit<EventFetchParams, 'filter'>): Promise<Event[]> => {
    if (params.series !== undefined) return [];
    const key = params.eventId ?? params.slug;
    if (key !== undefined) {
      const raw = await orNothing(/^\d{1,12}$/.test(key) && params.slug === undefined ? api.event(key) : api.eventBySlug(key));
      return raw ? toEvents([raw]) : [];
    }
    const status = params.status ?? 'active';
    const limit = Math.min(params.limit ?? defaultLimit, pageSize);
    if (params.query) {
      const { events } = await api.search({
        q: params.query,
        events_status: statusWord(status),
        keep_closed_markets: status === 'active' ? 0 : 1,
        page: 1,
        limit,
      });
      return toEvents(events);
    }
    const raws = await api.events({ offset: params.offset ?? 0, limit, status: statusWord(status), sort: 'volume', ascending: false });
    return toEvents(raws);
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
      unsupported: {
        fetchSeries: 'Probable has no series endpoint (recurrence is only a list filter)',
        fetchBalance: 'Probable has no balance endpoint: the USDT balance is an on-chain read (BNB Chain) of the trading wallet',
        watchTrades: 'Probable streams no public trades (its websocket has book streams and private execution reports)',
      },
    },

    // Streams: one `book:<tokenId>` stream per watched token over one websocket per adapter instance.
    watchOrderBook: (outcomeId) => stream.watchOrderBook(outcomeId),
    close: () => stream.close(),

    ...bindContext(orders, { buildOrder, submitOrder, createOrder, cancelOrder, fetchOrder, fetchOpenOrders, fetchMyTrades }),

    async fetchEvents(params = {}) {
      const keep = eventListPredicate(params);
      const events = await selectEvents(params);
      return keep ? events.filter(keep) : events;
    },

    async fetchMarkets(params = {}) {
      if (params.slug !== undefined) throw notSupported('fetchMarkets', 'Probable looks markets up by id only; give the marketId');
      const keep = marketListPredicate(params);
      let markets: Market[];
      if (params.marketId !== undefined) {
        if (!/^\d{1,12}$/.test(params.marketId)) return [];
        const raw = await orNothing(api.market(params.marketId));
        markets = raw ? [normalizeMarket(raw, raw.event ?? undefined, await midsOf([raw]))] : [];
      } else {
        const { filter: _marketFilter, ...listParams } = params;
        markets = (await selectEvents(listParams)).flatMap((event) => event.markets);
      }
      return markets.filter((market) => !keep || keep(market)).slice(0, params.limit ?? defaultLimit);
    },

    /** One book per outcome token (a binary market's two books are not derived from each other). */
    async fetchOrderBook(id, limit, params = {}) {
      const wanted = params.outcome ?? params.side;
      let tokenId = wanted !== undefined && /^\d{20,}$/.test(wanted) ? wanted : /^\d{20,}$/.test(id) ? id : undefined;
      if (!tokenId && (wanted === 'yes' || wanted === 'no') && /^\d{1,12}$/.test(id)) {
        // A market id with a side: its first outcome is yes, its second no (labels may be team codes).
        const raw = await orNothing(api.market(id));
        tokenId = raw ? outcomeTokens(raw)[wanted === 'yes' ? 0 : 1]?.tokenId : undefined;
        if (!tokenId) throw new PredgateError('MARKET_NOT_FOUND', `Market not found: ${id}`, { detail: { marketId: id } });
      }
      if (!tokenId)
        throw invalidArgument('params.outcome', `${id.slice(0, 40)} is not an outcome token id: give one, or a market id with params.outcome yes or no`);
      const raw = await api.book(tokenId);
      const level = (entry: { price: string; size: string }) => ({ price: toNumber(entry.price)!, size: toNumber(entry.size)! });
      return bookToDepth(
        normalizeOrderBook({ bids: raw.bids.map(level), asks: raw.asks.map(level), timestamp: toEpochMs(raw.timestamp) ?? context.clock.now() }),
        limit ?? params.limit,
      );
    },

    /**
     * Price samples bucketed into candles. The venue's `interval` is a
     * look-back window (`1m` is a month, not a minute); resolution is
     * `fidelity` in minutes, and the window is `startTs`/`endTs`.
     */
    async fetchOHLCV(outcomeId, params) {
      if (!/^\d{20,}$/.test(outcomeId)) throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome not found: ${outcomeId.slice(0, 40)}`, { detail: { outcomeId } });
      const step = resolutionMs(params.resolution);
      if (step < 60_000) throw invalidArgument('params.resolution', `${venueId} price history starts at one minute`);
      const count = params.limit ?? 100;
      const end = params.end?.getTime() ?? context.clock.now();
      const start = params.start?.getTime() ?? end - count * step;
      const { history } = await api.pricesHistory({
        market: outcomeId,
        startTs: Math.floor(start / 1000),
        endTs: Math.floor(end / 1000),
        fidelity: Math.round(step / 60_000),
      });
      const candles = bucketCandles(
        history.map((point) => ({ timestamp: point.t * 1000, price: toNumber(point.p)! })),
        step,
      ).filter((candle) => candle.timestamp >= Math.floor(start / step) * step && candle.timestamp <= end);
      return params.start ? candles.slice(0, count) : candles.slice(-count);
    },

    /** Public: positions of any address (or the `funderAddress` credential). */
    async fetchPositions(address) {
      const user = address ?? context.credentials?.funderAddress;
      if (!user) throw invalidArgument('address', `${venueId} positions are read by address: give one, or the funderAddress credential`);
      if (!/^0x[0-9a-fA-F]{40}$/.test(user)) throw invalidArgument('address', `${venueId} accounts are BNB Chain addresses (0x and 40 hex digits)`);
      // The SDK writes camelCase, older clients snake_case: both are read.
      return (await api.positions(user)).map((row) => {
        const pick = (camel: string, snake: string) => row[camel] ?? row[snake];
        const size = toNumber(row.size)!;
        const entryPrice = toNumber(pick('avgPrice', 'avg_price'))!;
        const currentPrice = toNumber(pick('curPrice', 'cur_price')) ?? entryPrice;
        return {
          marketId: String(pick('conditionId', 'condition_id') ?? ''),
          outcomeId: String(pick('asset', 'token_id')),
          outcomeLabel: String(row.outcome ?? ''),
          size,
          entryPrice,
          currentPrice,
          unrealizedPnL: toNumber(pick('cashPnl', 'cash_pnl')) ?? (currentPrice - entryPrice) * size,
          ...(toNumber(pick('realizedPnl', 'realized_pnl')) === undefined ? {} : { realizedPnL: toNumber(pick('realizedPnl', 'realized_pnl'))! }),
        };
      });
    },
  });
}

function statusWord(status: StatusFilter): 'active' | 'closed' | 'all' {
  return status === 'all' ? 'all' : status === 'active' ? 'active' : 'closed';
}
