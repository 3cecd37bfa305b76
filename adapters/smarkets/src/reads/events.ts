import { eventListPredicate, notSupported } from '@predgate/core';
import type { Event, EventFetchParams, EventFilterCriteria, Page, PageParams, StatusFilter } from '@predgate/core';
import type { SmarketsApi } from '../api/client.js';
import type { RawEvent, RawMarket } from '../api/schemas.js';
import { optionalToken } from '../auth/tokens.js';
import type { SmarketsContext } from '../context.js';
import { isVenueId } from '../ids.js';
import { normalizeEvent } from '../normalize/events.js';
import type { MarketDetails } from '../normalize/events.js';

export const defaultLimit = 100;
const maxEventPage = 1_000;
export const states: Record<Exclude<StatusFilter, 'inactive'>, string[]> = {
  active: ['new', 'upcoming', 'live'],
  closed: ['ended', 'settled'],
  all: ['new', 'upcoming', 'live', 'ended', 'settled', 'cancelled', 'suspended'],
};

export async function fetchEvents(ctx: SmarketsContext, params: EventFetchParams = {}): Promise<Event[]> {
  const keep = eventListPredicate(params);
  const events = await selectEvents(ctx, params);
  return keep ? events.filter(keep) : events;
}

/** One page by the venue's own order (ids), with the last id as the cursor: the catalog's way through every event. */
export async function fetchEventsPaginated(ctx: SmarketsContext, params: PageParams<EventFilterCriteria> = {}): Promise<Page<Event>> {
  const limit = Math.min(params.limit ?? defaultLimit, maxEventPage);
  const answer = await ctx.api.events(eventQuery({}, params.status ?? 'active', limit, params.cursor), await optionalToken(ctx));
  const events = await eventsWithMarkets(ctx, answer.events);
  const last = answer.events.at(-1)?.id;
  return answer.pagination?.next_page && last ? { data: events, nextCursor: last } : { data: events };
}

export async function selectEvents(ctx: SmarketsContext, params: Omit<EventFetchParams, 'filter'>): Promise<Event[]> {
  if (params.slug !== undefined) throw notSupported('fetchEvents', 'Smarkets slugs are not unique and the API looks nothing up by slug; give the id');
  if (params.series !== undefined) return [];
  if (params.eventId !== undefined) {
    if (!isVenueId(params.eventId)) return [];
    return eventsWithMarkets(ctx, (await ctx.api.events({ id: params.eventId, state: states.all }, await optionalToken(ctx))).events);
  }
  const status = params.status ?? 'active';
  const wanted = (params.offset ?? 0) + (params.limit ?? defaultLimit);
  const raws: RawEvent[] = [];
  let lastId: string | undefined;
  for (let page = 0; page < 10 && raws.length < wanted; page += 1) {
    const answer = await ctx.api.events(eventQuery(params, status, Math.min(maxEventPage, wanted - raws.length), lastId), await optionalToken(ctx));
    raws.push(...answer.events);
    if (!answer.pagination?.next_page || answer.events.length === 0) break;
    lastId = answer.events.at(-1)!.id;
  }
  return eventsWithMarkets(ctx, raws.slice(params.offset ?? 0, wanted));
}

/** Events with their markets (all of each event's, or only those given) and the markets' contracts, volumes and last prices. */
export async function eventsWithMarkets(ctx: SmarketsContext, raws: RawEvent[], onlyMarkets?: readonly RawMarket[]): Promise<Event[]> {
  const auth = await optionalToken(ctx);
  const markets =
    onlyMarkets ??
    (
      await inChunks(
        raws.map((raw) => raw.id),
        50,
        (ids) => ctx.api.markets(ids, auth),
      )
    ).flatMap((page) => page.markets);
  const details = await marketDetails(
    ctx.api,
    markets.map((market) => market.id),
    auth,
  );
  return raws.map((raw) =>
    normalizeEvent(
      raw,
      markets
        .filter((market) => market.event_id === raw.id && details.get(market.id)!.contracts.length > 0)
        .map((market) => ({ market, details: details.get(market.id)! })),
    ),
  );
}

function eventQuery(params: Omit<EventFetchParams, 'filter'>, status: StatusFilter, limit: number, lastId: string | undefined) {
  return {
    state: states[status === 'inactive' ? 'closed' : status],
    type_scope: 'single_event',
    with_new_type: true,
    sort: 'id',
    limit,
    ...(params.category === undefined ? {} : { type_domain: params.category.toLowerCase() }),
    ...(lastId === undefined ? {} : { pagination_last_id: lastId }),
  };
}

/** Contracts, volumes and last prices of markets, batched as the venue allows. */
async function marketDetails(api: SmarketsApi, marketIds: readonly string[], auth: string | undefined): Promise<Map<string, MarketDetails>> {
  const details = new Map<string, MarketDetails>(marketIds.map((id) => [id, { contracts: [], lastPrices: new Map() }]));
  if (marketIds.length === 0) return details;
  for (const page of await inChunks(marketIds, 100, (ids) => api.contracts(ids, auth))) {
    for (const contract of page.contracts) details.get(contract.market_id)?.contracts.push(contract);
  }
  const traded = marketIds.filter((id) => details.get(id)!.contracts.length > 0);
  if (traded.length === 0) return details;
  for (const page of await inChunks(traded, 300, (ids) => api.volumes(ids, auth))) {
    for (const volume of page.volumes) {
      const entry = details.get(volume.market_id);
      if (entry) entry.volume = volume.volume;
    }
  }
  for (const page of await inChunks(traded, 100, (ids) => api.lastPrices(ids, auth))) {
    for (const [marketId, prices] of Object.entries(page.last_executed_prices)) {
      for (const price of prices) details.get(marketId)?.lastPrices.set(price.contract_id, price.last_executed_price);
    }
  }
  return details;
}

async function inChunks<T>(ids: readonly string[], size: number, read: (chunk: string[]) => Promise<T>): Promise<T[]> {
  const pages: T[] = [];
  for (let index = 0; index < ids.length; index += size) pages.push(await read(ids.slice(index, index + size)));
  return pages;
}
