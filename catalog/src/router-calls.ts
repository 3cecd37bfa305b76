import { PredgateError, withBinaryRefs } from '@predgate/core';
import type { Event, EventFetchParams, Market, MarketFetchParams } from '@predgate/core';
import { normalizeCategory } from './categories.js';
import type { CatalogEntry } from './document.js';
import { catalogParams, lookupStatus } from './call-params.js';
import type { CatalogMethod } from './call-params.js';
import type { CatalogStore, EventQuery, MarketHit, MarketQuery } from './store.js';

export const routerVenue = 'router';
const defaultLimit = 50;
const maxLimit = 500;

/**
 * `/api/router/{method}`: the venue methods answered from the catalog across
 * every venue, in the pass-through envelope. Events carry the catalog UUID as
 * id, and `sourceExchange` on every event and market; markets keep their
 * convenience references, as on any pass-through answer.
 */
export async function answerRouterCall(
  store: CatalogStore,
  method: CatalogMethod,
  params: EventFetchParams & MarketFetchParams = {},
  now: number,
): Promise<Event | Event[] | Market | Market[]> {
  // The Router is the catalog: a parameter it cannot search by is a mistake, not a reason to go live.
  for (const key of Object.keys(params)) {
    if (!catalogParams.has(key)) throw invalid(`"params.${key}" is not something the router can search by`, key);
  }
  if (params.sort !== undefined && params.sort !== 'volume') throw invalid('"params.sort" can only be "volume": the router orders by 24h volume', 'sort');
  const limit = params.limit ?? defaultLimit;
  if (limit > maxLimit) throw invalid(`"params.limit" must be at most ${maxLimit}`, 'limit');
  switch (method) {
    case 'fetchEvents':
      return (await store.events(eventQuery(params, limit, now))).items.map(routerEvent);
    case 'fetchEvent': {
      const [entry] = (await store.events(eventQuery(params, 1, now, params.eventId ?? params.slug))).items;
      if (!entry) throw new PredgateError('EVENT_NOT_FOUND', `Event not found: ${params.eventId ?? params.slug ?? params.query ?? ''}`.trim(), { exchange: routerVenue });
      return routerEvent(entry);
    }
    case 'fetchMarkets':
      return (await store.markets(marketQuery(params, limit))).items.map(routerMarket);
    case 'fetchMarket': {
      const [hit] = (await store.markets(marketQuery(params, 1, params.marketId ?? params.slug ?? params.outcomeId))).items;
      if (!hit) throw new PredgateError('MARKET_NOT_FOUND', `Market not found: ${params.marketId ?? params.slug ?? params.outcomeId ?? ''}`.trim(), { exchange: routerVenue });
      return routerMarket(hit);
    }
  }
}

function eventQuery(params: EventFetchParams & MarketFetchParams, limit: number, now: number, lookupKey?: string): EventQuery {
  return {
    status: lookupStatus(params, lookupKey),
    expiredBy: now,
    order: 'router',
    limit,
    offset: params.offset ?? 0,
    ...(params.query ? { search: params.query.toLowerCase() } : {}),
    ...(params.eventId !== undefined ? { id: params.eventId } : {}),
    ...routerFilters(params),
  };
}

function marketQuery(params: MarketFetchParams, limit: number, lookupKey?: string): MarketQuery {
  return {
    status: lookupStatus(params, lookupKey),
    limit,
    offset: params.offset ?? 0,
    ...(params.query ? { title: params.query.toLowerCase() } : {}),
    ...(params.eventId !== undefined ? { eventUuid: params.eventId } : {}),
    ...routerFilters(params),
  };
}

type RouterFilterParams = Pick<MarketFetchParams, 'sourceExchange' | 'category' | 'tags' | 'slug' | 'marketId' | 'outcomeId'>;

/** The filters events and markets share, across venues: categories in their normalised form. */
function routerFilters(params: RouterFilterParams): Partial<EventQuery & MarketQuery> {
  return {
    ...(params.sourceExchange !== undefined ? { venue: params.sourceExchange } : {}),
    ...(params.category !== undefined ? { category: normalizeCategory(params.category) } : {}),
    ...(params.tags !== undefined ? { tags: params.tags.map((tag) => tag.toLowerCase()) } : {}),
    ...(params.slug !== undefined ? { slug: params.slug } : {}),
    ...(params.marketId !== undefined ? { marketId: params.marketId } : {}),
    ...(params.outcomeId !== undefined ? { outcomeId: params.outcomeId } : {}),
  };
}

function routerEvent(entry: CatalogEntry): Event {
  const event = entry.router;
  return { ...event, markets: event.markets.map((market) => withBinaryRefs(market)) };
}

function routerMarket(hit: MarketHit): Market {
  return withBinaryRefs({ ...hit.market, eventId: hit.entry.id, sourceExchange: hit.entry.venue });
}

function invalid(message: string, key: string): PredgateError {
  return new PredgateError('VALIDATION_ERROR', message, { exchange: routerVenue, detail: { argument: 'params', path: `params.${key}` } });
}
