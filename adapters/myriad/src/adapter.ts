import {
  PredgateError,
  bookToDepth,
  bucketCandles,
  collectNumberedPages,
  defineAdapter,
  eventListPredicate,
  fromBaseUnits,
  invalidArgument,
  isPredgateError,
  mapVenueFailure,
  marketListPredicate,
  missingCredentials,
  normalizeOrderBook,
  notSupported,
  resolutionMs,
  toNumber,
  venueMessageOf,
} from '@predgate/core';
import type { AdapterContext, EventFetchParams, Market, MarketFetchParams, PricePoint, QueryValue, VenueFailure } from '@predgate/core';
import { myriadApi } from './api.js';
import type { RawChart, RawMarket } from './api.js';
import type { MyriadConfig } from './index.js';
import { marketKey, normalizeEvent, normalizeMarket, partsOf, venueId } from './normalize.js';

/** Documented for callers without an API key: 30 requests per 10 seconds per IP (100 per second with one). */
const rateLimit = { requests: 30, intervalMs: 10_000 };
const pageSize = 100;
const defaultLimit = 20;
/** Lists filtered here are walked from the first page, at most this deep. */
const maxFilteredPages = 10;
const evmAddress = /^0x[0-9a-fA-F]{40}$/;
const sorts = { volume: 'volume_24h', liquidity: 'liquidity', newest: 'published_at' } as const;
/** `price_charts` windows and their point spacing, coarsest first: 30d every 4 hours, 7d every 30 minutes, 24h every 5. */
const chartWindows: Array<[timeframe: string, spacingMs: number]> = [
  ['30d', 14_400_000],
  ['7d', 1_800_000],
  ['24h', 300_000],
];

const notOnApi = 'Myriad’s API does not execute trades: an AMM trade is a transaction the user’s own wallet sends from a quote’s calldata';

/** Myriad's errors are NestJS bodies: `message` says what went wrong, `error` is only the status text. */
function mapError(failure: VenueFailure) {
  const { message } = (typeof failure.body === 'object' && failure.body !== null ? failure.body : {}) as { message?: unknown };
  const venueMessage = typeof message === 'string' ? message : Array.isArray(message) ? message.join('; ') : venueMessageOf(failure.body);
  const detail: Record<string, unknown> = venueMessage ? { venueMessage } : {};
  // The window is announced in X-RateLimit-Reset: read as seconds to wait where it is small enough to be that.
  const reset = Number(failure.headers['x-ratelimit-reset']);
  if (failure.status === 429 && failure.headers['retry-after'] === undefined && Number.isInteger(reset) && reset >= 0 && reset <= 3600)
    detail.retryAfter = reset;
  const code =
    failure.status !== 404 || !failure.path.startsWith('/markets/')
      ? undefined
      : /^\/markets\/[^/]+$/.test(failure.path)
        ? 'MARKET_NOT_FOUND'
        : 'OUTCOME_NOT_FOUND';
  return mapVenueFailure(failure, { ...(code ? { code } : {}), ...(venueMessage ? { message: `${venueId}: ${venueMessage}` } : {}), detail });
}

/**
 * Myriad: AMM and order-book markets on several EVM networks. Each market is
 * an event of its own (the listing's unit; the same question deployed on two
 * networks is two markets with their own pools and prices).
 */
export function createMyriadAdapter(context: AdapterContext, config: MyriadConfig) {
  const api = myriadApi(context.http({ venue: venueId, rateLimit, mapError }), config.baseUrl, context.credentials?.apiKey ?? config.apiKey);

  /** A market by `<network>:<id>` or slug; unknown is undefined. */
  const lookup = async (id: string): Promise<RawMarket | undefined> => {
    const parts = partsOf(id);
    try {
      return parts ? await api.market(parts.marketId, parts.networkId) : await api.marketBySlug(id);
    } catch (error) {
      if (isPredgateError(error) && error.code === 'MARKET_NOT_FOUND') return undefined;
      throw error;
    }
  };

  /**
   * The market and outcome an outcome id names; a market id with `yes`/`no`
   * (a binary market's sides) or an outcome number names one too.
   */
  const outcomeOf = async (id: string, side?: string) => {
    const parts = partsOf(id);
    if (!parts || (parts.outcomeId === undefined && side === undefined)) {
      throw invalidArgument('outcomeId', `${venueId} outcome ids are <network>:<market>:<outcome>, such as 2741:164:0`);
    }
    const market = await api.market(parts.marketId, parts.networkId);
    const outcomeId = parts.outcomeId ?? sideOf(normalizeMarket(market), side!);
    const outcome = market.outcomes.find((each) => each.id === outcomeId);
    if (!outcome) throw notFoundOutcome(side === undefined ? id : `${id} ${side}`);
    return { market, outcome };
  };

  const selectRaw = async (params: EventFetchParams | MarketFetchParams, keep: ((raw: RawMarket) => boolean) | undefined): Promise<RawMarket[]> => {
    const named = namedMarket(params);
    if (named !== undefined) {
      const raw = await lookup(named);
      return raw && (!keep || keep(raw)) ? [raw] : [];
    }
    const limit = params.limit ?? defaultLimit;
    const offset = params.offset ?? 0;
    const query = listQuery(params);
    const page = (number: number, size: number) => api.markets({ ...query, page: number, limit: size }).then(({ data }) => data);
    if (!keep) {
      // The venue pages by number: start on the page holding `offset`.
      const firstPage = Math.floor(offset / pageSize) + 1;
      const skip = offset - (firstPage - 1) * pageSize;
      const size = offset === 0 ? Math.min(limit, pageSize) : pageSize;
      const raws = await collectNumberedPages(page, { firstPage, pageSize: size, limit: skip + limit, maxPages: Math.ceil((skip + limit) / size) });
      return raws.slice(skip);
    }
    const raws = await collectNumberedPages(page, { pageSize, maxPages: maxFilteredPages });
    return raws.filter(keep).slice(offset, offset + limit);
  };

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Myriad',
      hosts: { rest: config.baseUrl },
      rateLimit,
      credentials: { required: [], optional: ['apiKey', 'funderAddress'] },
      unsupported: {
        fetchSeries: 'Myriad has no series',
        fetchBalance: 'Myriad’s API reports no wallet balance; balances are ERC-20 balances on each network',
        createOrder: notOnApi,
        buildOrder: notOnApi,
        submitOrder: notOnApi,
        cancelOrder: 'AMM trades cannot be cancelled; order-book order management is not implemented (its API schema is unpublished)',
        fetchOpenOrders: 'AMM markets have no orders; order-book order management is not implemented (its API schema is unpublished)',
        fetchOrderBooks: 'Myriad serves one outcome’s book per request: call fetchOrderBook for each outcome',
      },
    },

    async fetchEvents(params = {}) {
      const predicate = eventListPredicate(params);
      const status = statusKeep(params);
      const keep = predicate || status ? (raw: RawMarket) => (!status || status(raw)) && (!predicate || predicate(normalizeEvent(raw))) : undefined;
      return (await selectRaw(params, keep)).map(normalizeEvent);
    },

    async fetchMarkets(params = {}) {
      const predicate = marketListPredicate(params);
      const status = statusKeep(params);
      const keep = predicate || status ? (raw: RawMarket) => (!status || status(raw)) && (!predicate || predicate(normalizeMarket(raw))) : undefined;
      return (await selectRaw(params, keep)).map(normalizeMarket);
    },

    async fetchOrderBook(id, limit, params = {}) {
      const { market, outcome } = await outcomeOf(id, params.outcome);
      if (market.tradingModel !== 'ob') {
        throw notSupported('fetchOrderBook', `market ${marketKey(market)} is an AMM market: it has no order book, its outcome prices are the pool's`);
      }
      const book = await api.orderbook(market.id, market.networkId, outcome.id);
      const level = ([price, size]: [string, string]) => ({ price: fromBaseUnits(price, 18)!, size: fromBaseUnits(size, 18)! });
      const now = context.clock.now();
      return bookToDepth(normalizeOrderBook({ bids: book.bids.map(level), asks: book.asks.map(level), timestamp: now }), limit);
    },

    async fetchTrades(outcomeId, params = {}) {
      const parts = partsOf(outcomeId);
      if (parts?.outcomeId === undefined) throw invalidArgument('outcomeId', `${venueId} outcome ids are <network>:<market>:<outcome>, such as 2741:164:0`);
      const window: Record<string, QueryValue> = {
        ...(params.start ? { since: Math.floor(params.start.getTime() / 1000) } : {}),
        ...(params.end ? { until: Math.floor(params.end.getTime() / 1000) } : {}),
      };
      const { data } = await api.events(parts.marketId, parts.networkId, pageSize, window);
      return data
        .filter((row) => (row.action === 'buy' || row.action === 'sell') && row.outcomeId === parts.outcomeId && toNumber(row.shares)! > 0)
        .map((row, index) => ({
          id: row.txId ?? `${row.blockNumber ?? row.timestamp}-${index}`,
          timestamp: row.timestamp * 1000,
          price: toNumber(row.value)! / toNumber(row.shares)!,
          amount: toNumber(row.shares)!,
          side: row.action as 'buy' | 'sell',
          outcomeId,
        }))
        .slice(0, params.limit ?? pageSize);
    },

    async fetchOHLCV(outcomeId, params) {
      const { outcome } = await outcomeOf(outcomeId);
      const stepMs = resolutionMs(params.resolution);
      // The longest window whose points fit the candle: candles of 1h come from the 7-day chart's 30-minute points.
      const window = chartWindows.find(([, spacing]) => spacing <= stepMs && stepMs % spacing === 0);
      if (!window)
        throw invalidArgument('params.resolution', `${venueId} price charts have points every 5m, 30m or 4h; "${params.resolution}" is not a multiple of one`);
      const points: PricePoint[] = chartOf(outcome.price_charts, window[0]).map((point) => ({
        timestamp: point.timestamp * 1000,
        price: toNumber(point.value)!,
      }));
      const start = params.start?.getTime() ?? -Infinity;
      const end = params.end?.getTime() ?? Infinity;
      const candles = bucketCandles(
        points.filter((point) => point.timestamp >= start && point.timestamp <= end),
        stepMs,
      );
      return params.limit === undefined ? candles : candles.slice(-params.limit);
    },

    async fetchPositions(address) {
      const wallet = address ?? context.credentials?.funderAddress;
      if (!wallet) throw missingCredentials(venueId, ['funderAddress']);
      if (!evmAddress.test(wallet)) throw invalidArgument('address', `${venueId} positions are read by EVM wallet address (0x and 40 hex digits)`);
      const { data } = await api.portfolio(wallet);
      return data.map((row) => {
        const size = toNumber(row.shares)!;
        const entryPrice = toNumber(row.price)!;
        const currentPrice = size > 0 ? toNumber(row.value)! / size : entryPrice;
        const market = `${row.networkId}:${row.marketId}`;
        return {
          marketId: market,
          outcomeId: `${market}:${row.outcomeId}`,
          outcomeLabel: row.outcomeTitle ?? `Outcome ${row.outcomeId}`,
          size,
          entryPrice,
          currentPrice,
          unrealizedPnL: toNumber(row.profit) ?? (currentPrice - entryPrice) * size,
        };
      });
    },
  });
}

/** A list call naming one market (by event, market, outcome or slug) is a lookup. */
function namedMarket(params: EventFetchParams | MarketFetchParams): string | undefined {
  const market = params as MarketFetchParams;
  if (market.outcomeId !== undefined) {
    const parts = partsOf(market.outcomeId);
    return parts ? `${parts.networkId}:${parts.marketId}` : market.outcomeId;
  }
  return market.marketId ?? params.eventId ?? params.slug;
}

/** What the venue filters itself: keyword, topic, state and order. */
function listQuery(params: EventFetchParams | MarketFetchParams): Record<string, QueryValue> {
  const status = params.status ?? 'active';
  return {
    sort: sorts[params.sort ?? 'volume'],
    order: 'desc',
    ...(params.query ? { keyword: params.query } : {}),
    ...(params.category === undefined ? {} : { topics: params.category }),
    ...(status === 'active' ? { state: 'open' } : {}),
  };
}

/** `closed` spans two venue states (trading ended, and resolved): filtered here. */
function statusKeep(params: EventFetchParams | MarketFetchParams): ((raw: RawMarket) => boolean) | undefined {
  return params.status === 'closed' || params.status === 'inactive' ? (raw) => raw.state !== 'open' : undefined;
}

/** Charts come as a list of `{timeframe, prices}` or, on some deployments, keyed by timeframe. */
function chartOf(charts: RawChart | null | undefined, timeframe: string) {
  if (Array.isArray(charts)) return charts.find((each) => each.timeframe === timeframe)?.prices ?? [];
  const keyed = charts?.[timeframe];
  return (Array.isArray(keyed) ? keyed : keyed?.prices) ?? [];
}

/** The outcome number that `yes`/`no` (on a binary market) or one of the market's outcome ids names. */
function sideOf(market: Market, outcome: string): number | undefined {
  const named = outcome === 'yes' || outcome === 'no' ? market[outcome]?.outcomeId : outcome;
  const parts = named === undefined ? undefined : partsOf(named);
  return parts && `${parts.networkId}:${parts.marketId}` === market.marketId ? parts.outcomeId : undefined;
}

function notFoundOutcome(outcomeId: string) {
  return new PredgateError('OUTCOME_NOT_FOUND', `${venueId} has no outcome ${outcomeId.slice(0, 80)}`, {
    exchange: venueId,
    detail: { outcomeId: outcomeId.slice(0, 80) },
  });
}
