import { collectNumberedPages, eventListPredicate, marketListPredicate, unlessMissing } from '@predgate/core';
import type { Event, EventFetchParams, Market, MarketFetchParams, QueryValue } from '@predgate/core';
import type { RawMarket } from '../api/schemas.js';
import { pageSize } from '../venue.js';
import type { MyriadContext } from '../context.js';
import { partsOf } from '../ids.js';
import { normalizeEvent, normalizeMarket } from '../normalize/markets.js';

const defaultLimit = 20;
/** Lists filtered here are walked from the first page, at most this deep. */
const maxFilteredPages = 10;
const sorts = { volume: 'volume_24h', liquidity: 'liquidity', newest: 'published_at' } as const;

export async function fetchEvents(ctx: MyriadContext, params: EventFetchParams = {}): Promise<Event[]> {
  const predicate = eventListPredicate(params);
  const status = statusKeep(params);
  const keep = predicate || status ? (raw: RawMarket) => (!status || status(raw)) && (!predicate || predicate(normalizeEvent(raw))) : undefined;
  return (await selectRaw(ctx, params, keep)).map(normalizeEvent);
}

export async function fetchMarkets(ctx: MyriadContext, params: MarketFetchParams = {}): Promise<Market[]> {
  const predicate = marketListPredicate(params);
  const status = statusKeep(params);
  const keep = predicate || status ? (raw: RawMarket) => (!status || status(raw)) && (!predicate || predicate(normalizeMarket(raw))) : undefined;
  return (await selectRaw(ctx, params, keep)).map(normalizeMarket);
}

/** A market by `<network>:<id>` or slug; unknown is undefined. */
function lookup(ctx: MyriadContext, id: string): Promise<RawMarket | undefined> {
  const parts = partsOf(id);
  return unlessMissing(parts ? ctx.api.market(parts.marketId, parts.networkId) : ctx.api.marketBySlug(id));
}

async function selectRaw(
  ctx: MyriadContext,
  params: EventFetchParams | MarketFetchParams,
  keep: ((raw: RawMarket) => boolean) | undefined,
): Promise<RawMarket[]> {
  const named = namedMarket(params);
  if (named !== undefined) {
    const raw = await lookup(ctx, named);
    return raw && (!keep || keep(raw)) ? [raw] : [];
  }
  const limit = params.limit ?? defaultLimit;
  const offset = params.offset ?? 0;
  const query = listQuery(params);
  const page = (number: number, size: number) => ctx.api.markets({ ...query, page: number, limit: size }).then(({ data }) => data);
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
