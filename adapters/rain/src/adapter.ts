import {
  PredgateError,
  bucketCandles,
  collectNumberedPages,
  createFeed,
  defineAdapter,
  eventListPredicate,
  feedError,
  findEvent,
  findMarket,
  fromBaseUnits,
  invalidArgument,
  isPredgateError,
  mapVenueFailure,
  marketListPredicate,
  missingCredentials,
  percentToFraction,
  resolutionMs,
  toFraction,
  venueMessageOf,
} from '@predgate/core';
import type { AdapterContext, EventFetchParams, MarketFetchParams, Position, PricePoint, Trade, UserTrade, VenueFailure } from '@predgate/core';
import type { Hex } from 'viem';
import { rainApi } from './api.js';
import type { PoolState, RawPool, RawTradeRow, RawTradeRows, RawWalletRow, RawWalletRows } from './api.js';
import type { RainConfig } from './index.js';
import { RainStream } from './streams/pool-stream.js';
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
const evmAddress = /^0x[0-9a-fA-F]{40}$/;
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
  const stream = new RainStream({
    url: config.ws,
    venue: venueId,
    clock: context.clock,
    pingIntervalMs: config.stream.pingIntervalMs,
    backoff: config.stream.backoff,
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
      const pools = await everyPool(tag);
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

  /** The whole public list, newest first, read page by page (at most `maxWalkedPages`). */
  const everyPool = async (tag: { tag?: string } = {}): Promise<RawPool[]> => {
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
    // A pool created while the pages are read shifts the rest by one: it is seen twice, and kept once.
    const seen = new Set<string>();
    return pools.filter((pool) => !seen.has(pool._id) && Boolean(seen.add(pool._id)));
  };

  /** The wallet a read is for: the address given, else the caller's `walletAddress` (or `funderAddress`). */
  const walletOf = (address?: string): Hex => {
    const wallet = address ?? context.credentials?.walletAddress ?? context.credentials?.funderAddress;
    if (!wallet) throw missingCredentials(venueId, ['walletAddress']);
    if (!evmAddress.test(wallet))
      throw invalidArgument(address === undefined ? 'credentials.walletAddress' : 'address', `${venueId} wallets are EVM addresses (0x and 40 hex digits)`);
    return wallet as Hex;
  };

  /** A wallet's history, with every public pool by contract address (lower case) to name the pools it touched. */
  const walletHistory = async (wallet: Hex) => {
    const subgraph = subgraphKey();
    const history = await api.walletHistory(subgraph, wallet, maxRows);
    const byContract = new Map((await everyPool()).filter((pool) => pool.contractAddress).map((pool) => [pool.contractAddress!.toLowerCase(), pool]));
    return { history, byContract };
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

  const listEvents = async (params: EventFetchParams = {}) => {
    const predicate = eventListPredicate(params);
    const pools = await selectPools(params, predicate ? (pool) => predicate(normalizeEvent(pool)) : undefined);
    return (await withState(pools)).map(([pool, state]) => normalizeEvent(pool, state));
  };

  const listMarkets = async (params: MarketFetchParams = {}) => {
    const predicate = marketListPredicate(params);
    const pools = await selectPools(params, predicate ? (pool) => predicate(normalizeMarket(pool)) : undefined);
    return (await withState(pools)).map(([pool, state]) => normalizeMarket(pool, state));
  };

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Rain',
      hosts: { rest: config.baseUrl, rpc: config.rpcUrl, subgraph: config.subgraphUrl, ws: config.ws },
      rateLimit,
      credentials: { required: [], optional: ['apiKey', 'walletAddress', 'funderAddress'] },
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

    fetchEvents: listEvents,
    fetchMarkets: listMarkets,

    /** By `eventId` or `slug`, with or without `rain:`. */
    fetchEvent(params = {}) {
      const eventId = params.eventId === undefined ? undefined : canonicalPool(params.eventId);
      return findEvent(listEvents, { ...params, ...(eventId === undefined ? {} : { eventId }) }, venueId);
    },

    /** By `marketId`, `slug` or `outcomeId`, with or without `rain:`; pmxt's `rain:<pool>:<choice>` market ids name the pool's market. */
    fetchMarket(params = {}) {
      const marketId = params.marketId === undefined ? undefined : canonicalPool(params.marketId);
      const outcome = params.outcomeId === undefined ? undefined : partsOf(params.outcomeId);
      const outcomeId = outcome?.choice === undefined ? params.outcomeId : `${venueId}:${outcome.poolId}:${outcome.choice}`;
      return findMarket(
        listMarkets,
        { ...params, ...(marketId === undefined ? {} : { marketId }), ...(outcomeId === undefined ? {} : { outcomeId }) },
        venueId,
      );
    },

    async fetchTrades(outcomeId, params = {}) {
      const limit = params.limit ?? defaultLimit;
      const trades = await fills(outcomeId, Math.min(limit, maxRows), params.start, params.end);
      return trades.slice(0, limit).map(({ volume: _volume, ...trade }) => trade);
    },

    /**
     * Live prints of one option from the venue's Socket.IO pool events
     * (`enter-option/{poolId}`, `order-filled/{poolId}`), priced as
     * `fetchTrades` prices the subgraph's rows; the id is checked (and the
     * pool read for its token decimals) as `fetchTrades` checks it.
     */
    watchTrades(outcomeId, address) {
      if (address !== undefined)
        throw new PredgateError('NOT_SUPPORTED', `${venueId}: watching a wallet's trades is not supported; watch the outcome`, { exchange: venueId });
      return createFeed<Trade[]>((emit) => {
        let detach: (() => void) | undefined;
        let stopped = false;
        optionOf(outcomeId).then(
          ({ pool, choice }) => {
            if (!stopped)
              detach = stream.attach({ poolId: pool._id, choice, decimals: restDecimals(pool), outcomeId: `${venueId}:${pool._id}:${choice}` }, emit);
          },
          (error: unknown) => {
            if (!stopped) emit.error(feedError(error, venueId));
          },
        );
        return () => {
          stopped = true;
          detach?.();
        };
      });
    },

    close: () => stream.close(),

    async fetchMyTrades(params = {}) {
      const wallet = walletOf();
      const { history, byContract } = await walletHistory(wallet);
      const market = params.marketId === undefined ? undefined : partsOf(params.marketId)?.poolId;
      const outcome = params.outcomeId === undefined ? undefined : partsOf(params.outcomeId);
      const since = params.since?.getTime() ?? -Infinity;
      const until = params.until?.getTime() ?? Infinity;
      return walletTrades(history, byContract)
        .filter(
          ({ pool, choice, trade }) =>
            (params.marketId === undefined || pool._id === market) &&
            (params.outcomeId === undefined || (pool._id === outcome?.poolId && choice === outcome.choice)) &&
            trade.timestamp >= since &&
            trade.timestamp <= until,
        )
        .map(({ trade }) => trade)
        .slice(0, params.limit ?? defaultLimit);
    },

    async fetchPositions(address) {
      const wallet = walletOf(address);
      const { history, byContract } = await walletHistory(wallet);
      const claimed = new Set(history.claims.map((row) => row.poolAddress.toLowerCase()));
      // What the wallet paid per option, for its entry price: collateral over shares of every buy.
      const cost = new Map<string, { base: bigint; shares: bigint }>();
      const byId = new Map<string, RawPool>();
      for (const { pool, choice, trade, row } of walletTrades(history, byContract)) {
        if (trade.side !== 'buy') continue;
        const key = `${pool._id}:${choice}`;
        const sum = cost.get(key) ?? { base: 0n, shares: 0n };
        cost.set(key, { base: sum.base + BigInt(row.baseAmount), shares: sum.shares + BigInt(row.optionAmount) });
        byId.set(pool._id, pool);
      }
      // Pools the wallet bought into and has not claimed from, in id order; its shares are read on-chain.
      const pools = [...byId.keys()]
        .sort()
        .map((id) => byId.get(id)!)
        .filter((pool) => !claimed.has(pool.contractAddress!.toLowerCase()));
      if (pools.length === 0) return [];
      const holdings = await api.holdings(
        pools.map((pool) => ({ contractAddress: pool.contractAddress!, options: pool.options.map((_, at) => choiceOf(pool, at)) })),
        wallet,
      );
      return pools.flatMap((pool, index) => {
        const held = holdings[index]!;
        return pool.options.flatMap((option, at): Position[] => {
          const size = fromBaseUnits(held.votes[at]!.toString(), held.decimals)!;
          if (!(size > 0)) return [];
          const choice = choiceOf(pool, at);
          const winner = pool.status?.toLowerCase() === 'closed' ? pool.winnerOption?.choiceIndex : undefined;
          const onChain = held.prices[at];
          const currentPrice =
            winner !== undefined
              ? Number(winner === choice)
              : onChain !== undefined
                ? toFraction(fromBaseUnits(onChain.toString(), 18))
                : percentToFraction(option.percentage);
          if (currentPrice === undefined) {
            throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venueId}: getCurrentPrice(${choice}) of pool ${pool.contractAddress} failed on Arbitrum`, {
              exchange: venueId,
              detail: { endpoint: 'POST eth_call batch', contract: pool.contractAddress, field: 'getCurrentPrice()' },
            });
          }
          const paid = cost.get(`${pool._id}:${choice}`);
          // Shares bought before the newest 1000 fills of a kind have no recorded cost: the entry is then the current price.
          const entryPrice = paid && paid.shares > 0n ? toFraction(Number(paid.base) / Number(paid.shares))! : currentPrice;
          return [
            {
              marketId: `${venueId}:${pool._id}`,
              outcomeId: `${venueId}:${pool._id}:${choice}`,
              outcomeLabel: option.optionName,
              size,
              entryPrice,
              currentPrice,
              unrealizedPnL: (currentPrice - entryPrice) * size,
            },
          ];
        });
      });
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

/** `rain:<pool>` for any id naming a pool (bare, prefixed, or with an option); other text unchanged, to be not found. */
function canonicalPool(id: string): string {
  const parts = partsOf(id);
  return parts ? `${venueId}:${parts.poolId}` : id;
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
 * A wallet's fills as its own trades, newest first: its AMM buys, its resting
 * orders filled (maker: its order's side) and the orders it filled (taker: the
 * other side). Fills in pools missing from the public list (private pools) are left out.
 */
function walletTrades(history: RawWalletRows, byContract: Map<string, RawPool>) {
  const kinds: Array<[RawWalletRow[], 'buy' | 'sell', 'amm' | 'maker' | 'taker']> = [
    [history.enterOptions, 'buy', 'amm'],
    [history.executeBuyOrders, 'buy', 'maker'],
    [history.executeSellOrdersAsTaker, 'buy', 'taker'],
    [history.executeSellOrders, 'sell', 'maker'],
    [history.executeBuyOrdersAsTaker, 'sell', 'taker'],
  ];
  return kinds
    .flatMap(([rows, side, role]) =>
      rows.flatMap((row) => {
        const pool = byContract.get(row.poolAddress.toLowerCase());
        if (!pool) return [];
        const choice = Number(role === 'amm' ? row.option : row.orderOption);
        const shares = fromBaseUnits(row.optionAmount, restDecimals(pool))!;
        const price =
          role === 'amm'
            ? BigInt(row.optionAmount) === 0n
              ? undefined
              : toFraction(Number(row.baseAmount) / Number(row.optionAmount))
            : toFraction(fromBaseUnits(row.orderPrice, 18));
        if (!(shares > 0) || price === undefined) return [];
        const trade: UserTrade = {
          id: row.id,
          timestamp: Number(row.blockTimestamp) * 1000,
          price,
          amount: shares,
          side,
          outcomeId: `${venueId}:${pool._id}:${choice}`,
          marketId: `${venueId}:${pool._id}`,
          // The wallet's own order, named by pool, side and the contract's order number (numbers repeat across pools and sides).
          ...(role === 'maker' ? { orderId: `${row.poolAddress.toLowerCase()}:${side}:${row.orderID}` } : {}),
        };
        return [{ pool, choice, trade, row }];
      }),
    )
    .sort((a, b) => b.trade.timestamp - a.trade.timestamp || a.trade.id.localeCompare(b.trade.id));
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
