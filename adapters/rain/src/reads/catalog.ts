import {
  PredgateError,
  collectNumberedPages,
  collectingDrift,
  eventListPredicate,
  findEvent,
  findMarket,
  marketListPredicate,
  unlessMissing,
} from '@predgate/core';
import type { Event, EventFetchParams, Market, MarketFetchParams } from '@predgate/core';
import type { PoolState, RawPool } from '../api/schemas.js';
import { venueId } from '../venue.js';
import type { RainContext } from '../context.js';
import { canonicalPool, partsOf } from '../ids.js';
import { choiceOf, normalizeEvent, normalizeMarket, readsChain, tradingStatuses } from '../normalize/pools.js';

/*
 * Each pool is one event holding one market of all its options: metadata from
 * the REST API, prices and pool totals from the chain.
 */

const pageSize = 100;
const defaultLimit = 20;
/** Lists filtered here are walked from the first page, at most this deep. */
const maxFilteredPages = 10;
/** Lists in the catalog's order are read whole: at most this many pages. */
const maxWalkedPages = 20;
/** Rain's own orders (`totalVolumn`, sic, is lifetime volume; the default order is the catalog's, see selectPools). */
const sorts = { liquidity: 'totalLiquidity', newest: 'age' } as const;

export async function fetchEvents(ctx: RainContext, params: EventFetchParams = {}): Promise<Event[]> {
  const predicate = eventListPredicate(params);
  const pools = await selectPools(ctx, params, predicate ? (pool) => predicate(normalizeEvent(pool)) : undefined);
  return (await withState(ctx, pools)).map(([pool, state]) => normalizeEvent(pool, state));
}

export async function fetchMarkets(ctx: RainContext, params: MarketFetchParams = {}): Promise<Market[]> {
  const predicate = marketListPredicate(params);
  const pools = await selectPools(ctx, params, predicate ? (pool) => predicate(normalizeMarket(pool)) : undefined);
  return (await withState(ctx, pools)).map(([pool, state]) => normalizeMarket(pool, state));
}

/** By `eventId` or `slug`, with or without `rain:`. */
export function fetchEvent(ctx: RainContext, params: EventFetchParams = {}) {
  const eventId = params.eventId === undefined ? undefined : canonicalPool(params.eventId);
  return findEvent((query) => fetchEvents(ctx, query), { ...params, ...(eventId === undefined ? {} : { eventId }) }, venueId);
}

/** By `marketId`, `slug` or `outcomeId`, with or without `rain:`; pmxt's `rain:<pool>:<choice>` market ids name the pool's market. */
export function fetchMarket(ctx: RainContext, params: MarketFetchParams = {}) {
  const marketId = params.marketId === undefined ? undefined : canonicalPool(params.marketId);
  const outcome = params.outcomeId === undefined ? undefined : partsOf(params.outcomeId);
  const outcomeId = outcome?.choice === undefined ? params.outcomeId : `${venueId}:${outcome.poolId}:${outcome.choice}`;
  return findMarket(
    (query) => fetchMarkets(ctx, query),
    { ...params, ...(marketId === undefined ? {} : { marketId }), ...(outcomeId === undefined ? {} : { outcomeId }) },
    venueId,
  );
}

/** The pools' on-chain state, read for every deployed pool still trading or resolving, in shared batches. */
async function withState(ctx: RainContext, pools: RawPool[]): Promise<Array<[RawPool, PoolState | undefined]>> {
  const live = pools.filter(readsChain);
  const states =
    live.length === 0
      ? []
      : await ctx.api.poolStates(live.map((pool) => ({ contractAddress: pool.contractAddress, options: pool.options.map((_, at) => choiceOf(pool, at)) })));
  const byPool = new Map<RawPool, PoolState | undefined>(live.map((pool, index) => [pool, states[index]]));
  return pools.map((pool) => [pool, byPool.get(pool)]);
}

async function selectPools(
  ctx: RainContext,
  params: EventFetchParams | MarketFetchParams,
  matches: ((pool: RawPool) => boolean) | undefined,
): Promise<RawPool[]> {
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
    const pool = parts ? await unlessMissing(ctx.api.pool(parts.poolId)) : undefined;
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
    const pools = await everyPool(ctx, tag);
    return (keep ? pools.filter(keep) : pools).sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0)).slice(offset, offset + limit);
  }
  const page = (number: number, size: number) => ctx.api.pools({ sortBy: sorts[params.sort as keyof typeof sorts], ...tag, limit: size, offset: number });
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
    const { value: pools, reports } = await collectingDrift(() => page(number, pageSize));
    kept.push(...pools.filter(keep));
    // A pool left out as unreadable was still sent: a full page is not the last.
    if (pools.length + reports.length < pageSize) break;
  }
  return kept.slice(offset, offset + limit);
}

/** The whole public list, newest first, read page by page (at most `maxWalkedPages`). */
export async function everyPool(ctx: RainContext, tag: { tag?: string } = {}): Promise<RawPool[]> {
  const page = (number: number, size: number) => ctx.api.pools({ sortBy: sorts.newest, ...tag, limit: size, offset: number });
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
}

/** A list call naming one pool (by event, market, outcome or slug) is a lookup. */
function namedPool(params: EventFetchParams | MarketFetchParams): string | undefined {
  const market = params as MarketFetchParams;
  return market.outcomeId ?? market.marketId ?? params.eventId ?? params.slug;
}
