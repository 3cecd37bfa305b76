import { eventListPredicate, isPredgateError, marketListPredicate, notSupported, toNumber, unlessMissing } from '@predgate/core';
import type { Event, EventFetchParams, Market, MarketFetchParams, StatusFilter } from '@predgate/core';
import type { RawEvent, RawMarket } from '../api/schemas.js';
import type { ProbableContext } from '../context.js';
import { normalizeEvent, normalizeMarket, outcomeTokens } from '../normalize/markets.js';
import type { Mids } from '../normalize/markets.js';

const pageSize = 100;
const defaultLimit = 20;

export async function fetchEvents(ctx: ProbableContext, params: EventFetchParams = {}): Promise<Event[]> {
  const keep = eventListPredicate(params);
  const events = await selectEvents(ctx, params);
  return keep ? events.filter(keep) : events;
}

export async function fetchMarkets(ctx: ProbableContext, params: MarketFetchParams = {}): Promise<Market[]> {
  if (params.slug !== undefined) throw notSupported('fetchMarkets', 'Probable looks markets up by id only; give the marketId');
  const keep = marketListPredicate(params);
  let markets: Market[];
  if (params.marketId !== undefined) {
    if (!/^\d{1,12}$/.test(params.marketId)) return [];
    const raw = await unlessMissing(ctx.api.market(params.marketId));
    markets = raw ? [normalizeMarket(raw, raw.event ?? undefined, await midsOf(ctx, [raw]))] : [];
  } else {
    const { filter: _marketFilter, ...listParams } = params;
    markets = (await selectEvents(ctx, listParams)).flatMap((event) => event.markets);
  }
  return markets.filter((market) => !keep || keep(market)).slice(0, params.limit ?? defaultLimit);
}

async function selectEvents(ctx: ProbableContext, params: Omit<EventFetchParams, 'filter'>): Promise<Event[]> {
  if (params.series !== undefined) return [];
  const key = params.eventId ?? params.slug;
  if (key !== undefined) {
    const raw = await unlessMissing(/^\d{1,12}$/.test(key) && params.slug === undefined ? ctx.api.event(key) : ctx.api.eventBySlug(key));
    return raw ? toEvents(ctx, [raw]) : [];
  }
  const status = params.status ?? 'active';
  const limit = Math.min(params.limit ?? defaultLimit, pageSize);
  if (params.query) {
    const { events } = await ctx.api.search({
      q: params.query,
      events_status: statusWord(status),
      keep_closed_markets: status === 'active' ? 0 : 1,
      page: 1,
      limit,
    });
    return toEvents(ctx, events);
  }
  const raws = await ctx.api.events({ offset: params.offset ?? 0, limit, status: statusWord(status), sort: 'volume', ascending: false });
  return toEvents(ctx, raws);
}

async function toEvents(ctx: ProbableContext, raws: RawEvent[]): Promise<Event[]> {
  const mids = await midsOf(
    ctx,
    raws.flatMap((raw) => raw.markets ?? []),
  );
  return raws.map((raw) => normalizeEvent(raw, mids));
}

/** Midpoints of the first outcome of each market; a token the venue has no midpoint for stays unknown. */
async function midsOf(ctx: ProbableContext, markets: readonly RawMarket[]): Promise<Mids> {
  const mids: Mids = new Map();
  for (const market of markets) {
    const [first] = outcomeTokens(market);
    if (!first || first.price != null || first.winner != null) continue;
    const answer = await ctx.api.midpoint(first.tokenId).catch((error: unknown) => {
      if (isPredgateError(error) && (error.code === 'NOT_FOUND' || error.code === 'EXCHANGE_NOT_AVAILABLE')) return undefined;
      throw error;
    });
    const mid = toNumber(answer?.mid);
    if (mid !== undefined && mid >= 0 && mid <= 1) mids.set(first.tokenId, mid);
  }
  return mids;
}

function statusWord(status: StatusFilter): 'active' | 'closed' | 'all' {
  return status === 'all' ? 'all' : status === 'active' ? 'active' : 'closed';
}
