import {
  PredgateError,
  bucketCandles,
  collectNumberedPages,
  defineAdapter,
  eventListPredicate,
  fromBaseUnits,
  invalidArgument,
  isPredgateError,
  mapVenueFailure,
  marketListPredicate,
  resolutionMs,
  toFraction,
  venueMessageOf,
} from '@predgate/core';
import type { AdapterContext, EventFetchParams, MarketFetchParams, PricePoint, Trade, VenueFailure } from '@predgate/core';
import { rainApi } from './api.js';
import type { PoolState, RawPool, RawTradeRow, RawTradeRows } from './api.js';
import type { RainConfig } from './index.js';
import { choiceOf, normalizeEvent, normalizeMarket, partsOf, readsChain, restDecimals, tradingStatuses, venueId } from './normalize.js';

/** Rain publishes no limit; pmxt kept 4 requests a second, and public Arbitrum RPCs throttle bursts. */
const rateLimit = { requests: 4, intervalMs: 1_000 };
const pageSize = 100;
const defaultLimit = 20;
/** Lists filtered here are walked from the first page, at most this deep. */
const maxFilteredPages = 10;
/** Lists in the catalog's order are read whole: at most this many pages. */
const maxWalkedPages = 20;
/** Subgraph rows per entity for one call (The Graph's cap is 1000). */
const maxRows = 1000;
/** Rain's own orders (`totalVolumn`, sic, is lifetime volume; the default order is the catalog's, see selectPools). */
const sorts = { liquidity: 'totalLiquidity', newest: 'age' } as const;

const wallet =
  'a Rain trade is an Arbitrum transaction the user’s own wallet signs and sends to the pool contract (enterOption, placeBuyOrder, placeSellOrder); Rain has no API that executes orders';

/**
 * Rain: permissionless prediction pools on Arbitrum One. Metadata comes from
 * the REST API, prices and pool totals from the chain, history from the
 * subgraph. Each pool is one event holding one market of all its options.
 */
export function createRainAdapter(context: AdapterContext, config: RainConfig) {
  const subgraphOrigin = new URL(config.subgraphUrl).origin;
  const rpcOrigin = new URL(config.rpcUrl).origin;
  const api = rainApi(context.http({ venue: venueId, rateLimit, mapError: (failure) => mapError(failure, { subgraphOrigin, rpcOrigin }) }), {
    rest: config.baseUrl,
    rpc: config.rpcUrl,
    subgraph: config.subgraphUrl,
  });

  /** A pool by id; unknown is undefined. */
  const lookup = async (poolId: string): Promise<RawPool | undefined> => {
    try {
      return await api.pool(poolId);
    } catch (error) {
      if (isPredgateError(error) && error.code === 'MARKET_NOT_FOUND') return undefined;
      throw error;
    }
  };

  /** The pools' on-chain state, read for every deployed pool still trading or resolving, in shared batches. */
  const withState = async (pools: RawPool[]): Promise<Array<[RawPool, PoolState | undefined]>> => {
    const live = pools.filter(readsChain);
    const states =
      live.length === 0
        ? []
        : await api.poolStates(live.map((pool) => ({ contractAddress: pool.contractAddress, options: pool.options.map((_, at) => choiceOf(pool, at)) })));
    const byPool = new Map<RawPool, PoolState | undefined>(live.map((pool, index) => [pool, states[index]]));
    return pools.map((pool) => [pool, byPool.get(pool)]);
  };

  const selectPools = async (params: EventFetchParams | MarketFetchParams, matches: ((pool: RawPool) => boolean) | undefined): Promise<RawPool[]> => {
    const status = params.status ?? 'active';
    const statusKeep =
      status === 'all'
        ? undefined
        : status === 'active'
          ? (pool: RawPool) => !pool.status || tradingStatuses.has(pool.status.toLowerCase())
          : (pool: RawPool) => Boolean(pool.status) && !tradingStatuses.has(pool.status!.toLowerCase());
    const named = namedPool(params);
    if (named !== undefined) {
      const parts = partsOf(named);
      const pool = parts ? await lookup(parts.poolId) : undefined;
      // A lookup finds the pool whatever its status, unless the caller named one.
      const keepStatus = params.status === undefined ? undefined : statusKeep;
      return pool && (!keepStatus || keepStatus(pool)) && (!matches || matches(pool)) ? [pool] : [];
    }
    const limit = params.limit ?? defaultLimit;
    const offset = params.offset ?? 0;
    // One tag the venue filters itself (case-insensitive); more are matched here.
    const tag = params.tags?.length === 1 ? { tag: params.tags[0] } : {};
    const keep = statusKeep || matches ? (pool: RawPool) => (!statusKeep || statusKeep(pool)) && (!matches || matches(pool)) : undefined;
    if (params.sort === undefined || params.sort === 'volume') {
      // By 24-hour volume, the catalog's order: Rain has no 24-hour figure, so every pool ties at 0 and the
      // order is the pool id's (the creation time first). Only the whole list can be put in that order.
      const page = (number: number, size: number) => api.pools({ sortBy: sorts.newest, ...tag, limit: size, offset: number });
      const pools = await collectNumberedPages(page, { pageSize, maxPages: maxWalkedPages + 1 });
      if (pools.length > pageSize * maxWalkedPages) {
        throw new PredgateError(
          'EXCHANGE_NOT_AVAILABLE',
          `${venueId} lists more than ${pageSize * maxWalkedPages} pools: ask with sort "newest" or "liquidity" (the venue's own orders)`,
          {
            exchange: venueId,
            detail: { endpoint: 'GET /pools/public-pools', pages: maxWalkedPages },
          },
        );
      }
      return (keep ? pools.filter(keep) : pools).sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0)).slice(offset, offset + limit);
    }
    const page = (number: number, size: number) => api.pools({ sortBy: sorts[params.sort as keyof typeof sorts], ...tag, limit: size, offset: number });
    if (!keep) {
      // Rain's `offset` is a page number: a window on a page boundary is one page of the size asked for.
      const aligned = limit <= pageSize && offset % limit === 0;
      const size = aligned ? limit : pageSize;
      const firstPage = Math.floor(offset / size) + 1;
      const skip = offset - (firstPage - 1) * size;
      const pools = await collectNumberedPages(page, { firstPage, pageSize: size, limit: skip + limit, maxPages: Math.ceil((skip + limit) / size) });
      return pools.slice(skip);
    }
    const kept: RawPool[] = [];
    for (let number = 1; number <= maxFilteredPages && kept.length < offset + limit; number += 1) {
      const pools = await page(number, pageSize);
      kept.push(...pools.filter(keep));
      if (pools.length < pageSize) break;
    }
    return kept.slice(offset, offset + limit);
  };

  /** The pool and option an outcome id names. */
  const optionOf = async (outcomeId: string) => {
    const parts = partsOf(outcomeId);
    if (parts?.choice === undefined) {
      throw invalidArgument('outcomeId', `${venueId} outcome ids are rain:<pool id>:<choice index>, such as rain:6aa7cae7dffaf5aa153f7d87:0`);
    }
    if (parts.no)
      throw invalidArgument('outcomeId', `${venueId} has no "Not X" shares: every outcome is one of the pool's options, rain:<pool id>:<choice index>`);
    const pool = await api.pool(parts.poolId);
    const position = pool.options.findIndex((_, at) => choiceOf(pool, at) === parts.choice);
    if (position === -1) {
      throw new PredgateError('OUTCOME_NOT_FOUND', `${venueId} pool ${pool._id} has no option ${parts.choice}`, {
        exchange: venueId,
        detail: { outcomeId: outcomeId.slice(0, 80) },
      });
    }
    return { pool, choice: parts.choice };
  };

  /** The The Graph API key: the caller's own, else the operator's. */
  const subgraphKey = () => {
    const key = context.credentials?.apiKey ?? config.subgraphApiKey;
    if (!key) {
      throw new PredgateError(
        'AUTHENTICATION_ERROR',
        `${venueId}: trades and candles come from Rain's subgraph on The Graph's gateway, which needs an API key: send credentials.apiKey or configure subgraphApiKey`,
        { detail: { required: ['apiKey'], service: 'subgraph' } },
      );
    }
    return { key };
  };

  /** An option's fills (AMM buys and limit-order fills), newest first, in the pool's collateral. */
  const fills = async (outcomeId: string, first: number, start?: Date, end?: Date) => {
    const subgraph = subgraphKey();
    const { pool, choice } = await optionOf(outcomeId);
    if (!pool.contractAddress) return [];
    const rows = await api.trades(subgraph, pool.contractAddress, choice, {
      first,
      ...(start ? { since: Math.floor(start.getTime() / 1000) } : {}),
      ...(end ? { until: Math.floor(end.getTime() / 1000) } : {}),
    });
    return tradesOf(rows, restDecimals(pool), outcomeId);
  };

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Rain',
      hosts: { rest: config.baseUrl, rpc: config.rpcUrl, subgraph: config.subgraphUrl },
      rateLimit,
      credentials: { required: [], optional: ['apiKey'] },
      unsupported: {
        fetchSeries: 'Rain has no series',
        fetchEventMetadata: 'Rain has no metadata endpoint beyond the pool itself',
        fetchOrderBook:
          'Rain’s contracts expose only the best resting bid and ask price per option (firstBuyOrderPrice, firstSellOrderPrice); the size at each price is not readable from a documented call, so no book with sizes can be built',
        createOrder: wallet,
        buildOrder: wallet,
        submitOrder: wallet,
        cancelOrder: 'cancelling a Rain limit order is an Arbitrum transaction the order’s own wallet signs and sends (cancelBuyOrders, cancelSellOrders)',
      },
    },

    async fetchEvents(params = {}) {
      const predicate = eventListPredicate(params);
      const pools = await selectPools(params, predicate ? (pool) => predicate(normalizeEvent(pool)) : undefined);
      return (await withState(pools)).map(([pool, state]) => normalizeEvent(pool, state));
    },

    async fetchMarkets(params = {}) {
      const predicate = marketListPredicate(params);
      const pools = await selectPools(params, predicate ? (pool) => predicate(normalizeMarket(pool)) : undefined);
      return (await withState(pools)).map(([pool, state]) => normalizeMarket(pool, state));
    },

    async fetchTrades(outcomeId, params = {}) {
      const limit = params.limit ?? defaultLimit;
      const trades = await fills(outcomeId, Math.min(limit, maxRows), params.start, params.end);
      return trades.slice(0, limit).map(({ volume: _volume, ...trade }) => trade);
    },

    async fetchOHLCV(outcomeId, params) {
      const stepMs = resolutionMs(params.resolution);
      const trades = await fills(outcomeId, maxRows, params.start, params.end);
      const points: PricePoint[] = trades.map((trade) => ({ timestamp: trade.timestamp, price: trade.price, volume: trade.volume }));
      const candles = bucketCandles(points, stepMs);
      return params.limit === undefined ? candles : candles.slice(-params.limit);
    },
  });
}

/** A list call naming one pool (by event, market, outcome or slug) is a lookup. */
function namedPool(params: EventFetchParams | MarketFetchParams): string | undefined {
  const market = params as MarketFetchParams;
  return market.outcomeId ?? market.marketId ?? params.eventId ?? params.slug;
}

/**
 * Trades as the taker saw them: an AMM entry is a buy at the collateral paid
 * per share; a resting buy order filled is the taker selling to it, a resting
 * sell order filled is the taker buying. Rows of zero shares are left out.
 */
function tradesOf(rows: RawTradeRows, decimals: number, outcomeId: string): Array<Trade & { volume: number }> {
  const trade = (row: RawTradeRow, side: 'buy' | 'sell', price: number | undefined) => {
    const amount = fromBaseUnits(row.optionAmount, decimals)!;
    if (!(amount > 0) || price === undefined) return [];
    return [
      {
        id: row.id,
        timestamp: Number(row.blockTimestamp) * 1000,
        price,
        amount,
        side,
        outcomeId,
        volume: fromBaseUnits(row.baseAmount, decimals)!,
      },
    ];
  };
  const amm = (row: RawTradeRow) => (BigInt(row.optionAmount) === 0n ? undefined : toFraction(Number(row.baseAmount) / Number(row.optionAmount)));
  const limit = (row: RawTradeRow) => toFraction(fromBaseUnits(row.orderPrice, 18));
  return [
    ...rows.enterOptions.flatMap((row) => trade(row, 'buy', amm(row))),
    ...rows.executeBuyOrders.flatMap((row) => trade(row, 'sell', limit(row))),
    ...rows.executeSellOrders.flatMap((row) => trade(row, 'buy', limit(row))),
  ].sort((a, b) => b.timestamp - a.timestamp || a.id.localeCompare(b.id));
}

/**
 * Rain's REST errors carry `{statusCode, message}`; Cloudflare's challenge page
 * is an outage, not a refusal; an unknown pool is MARKET_NOT_FOUND. Subgraph and
 * RPC failures say which back end failed.
 */
function mapError(failure: VenueFailure, origins: { subgraphOrigin: string; rpcOrigin: string }) {
  const venueMessage = venueMessageOf(failure.body);
  const service =
    failure.origin === origins.subgraphOrigin ? 'Rain subgraph (The Graph gateway)' : failure.origin === origins.rpcOrigin ? 'Arbitrum RPC' : undefined;
  const html = typeof failure.body === 'string' && /<html|just a moment|cf_chl|challenge-platform/i.test(failure.body);
  const code =
    failure.status === 404 && /^\/pools\/pool\//.test(failure.path) && service === undefined
      ? 'MARKET_NOT_FOUND'
      : failure.status === 403 && html
        ? 'EXCHANGE_NOT_AVAILABLE'
        : undefined;
  const shown = html ? undefined : venueMessage;
  const message = service
    ? `${venueId}: the ${service} answered HTTP ${failure.status}${shown ? `: ${shown}` : ''}`
    : shown
      ? `${venueId}: ${shown}`
      : html
        ? `${venueId}: the REST API answered HTTP ${failure.status} with a Cloudflare challenge page`
        : undefined;
  return mapVenueFailure(failure, {
    ...(code ? { code } : {}),
    ...(message ? { message } : {}),
    detail: { ...(service ? { service } : {}), ...(html ? { venueMessage: 'Cloudflare challenge page' } : {}) },
  });
}
