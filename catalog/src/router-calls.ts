import { PredgateError, withBinaryRefs } from '@predgate/core';
import type { Event, EventFetchParams, Market, MarketFetchParams } from '@predgate/core';
import { normalizeCategory } from './categories.js';
import type { CatalogEntry } from './document.js';
import { catalogParams, lookupStatus } from './call-params.js';
import type { CatalogStore, EventQuery, MarketHit, MarketQuery } from './store.js';

/** One set of limits for every Router surface. */
export const routerLimits = { default: 50, max: 500 } as const;

/**
 * The Router's venue methods, answered from the catalog across every venue
 * (the pass-through surface at `/api/router/{method}`). Events carry the
 * catalog UUID as id, and `sourceExchange` on every event and market; markets
 * keep their convenience references, as on any pass-through answer.
 */
export function routerCalls(store: CatalogStore, now: () => number) {
  return {
    async fetchEvents(params: EventFetchParams = {}): Promise<Event[]> {
      return (await store.events(routerEventQuery(checked(params), now()))).items.map(routerEvent);
    },
    async fetchEvent(params: EventFetchParams = {}): Promise<Event> {
      const key = params.eventId ?? params.slug;
      const [entry] = (await store.events(routerEventQuery({ ...checked(params), limit: 1 }, now(), key))).items;
      if (!entry) throw new PredgateError('EVENT_NOT_FOUND', `Event not found: ${key ?? params.query ?? ''}`.trim());
      return routerEvent(entry);
    },
    async fetchMarkets(params: MarketFetchParams = {}): Promise<Market[]> {
      return (await store.markets(marketQuery(checked(params)))).items.map(routerMarket);
    },
    async fetchMarket(params: MarketFetchParams = {}): Promise<Market> {
      const key = params.marketId ?? params.slug ?? params.outcomeId;
      const [hit] = (await store.markets(marketQuery({ ...checked(params), limit: 1 }, key))).items;
      if (!hit) throw new PredgateError('MARKET_NOT_FOUND', `Market not found: ${key ?? ''}`.trim());
      return routerMarket(hit);
    },
  };
}

/** The Router's parameters; `/v0/events` speaks them too (its `q` and `closed` mapped onto `query` and `status`). */
export type RouterParams = EventFetchParams & MarketFetchParams;

/** The Router is the catalog: a parameter it cannot search by is a mistake, not a reason to go live. */
function checked<P extends EventFetchParams | MarketFetchParams>(params: P): P & { limit: number } {
  for (const key of Object.keys(params)) {
    if (!catalogParams.has(key)) throw invalid(`"params.${key}" is not something the router can search by`, key);
  }
  if (params.sort !== undefined && params.sort !== 'volume') throw invalid('"params.sort" can only be "volume": the router orders by 24h volume', 'sort');
  const limit = params.limit ?? routerLimits.default;
  if (limit > routerLimits.max) throw invalid(`"params.limit" must be at most ${routerLimits.max}`, 'limit');
  return { ...params, limit };
}

/** The store query of a Router event search, for `/v0/events` and `/api/router/fetchEvents` alike. */
export function routerEventQuery(params: RouterParams & { limit: number }, now: number, lookupKey?: string): EventQuery {
  return {
    status: lookupStatus(params, lookupKey),
    expiredBy: now,
    order: 'router',
    limit: params.limit,
    offset: params.offset ?? 0,
    ...(params.query ? { search: params.query.toLowerCase() } : {}),
    ...(params.eventId !== undefined ? { id: params.eventId } : {}),
    ...routerFilters(params),
  };
}

function marketQuery(params: MarketFetchParams & { limit: number }, lookupKey?: string): MarketQuery {
  return {
    status: lookupStatus(params, lookupKey),
    limit: params.limit,
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
  return withBinaryRefs({ ...hit.market, eventId: hit.eventId, sourceExchange: hit.venue });
}

function invalid(message: string, key: string): PredgateError {
  return new PredgateError('VALIDATION_ERROR', message, { detail: { argument: 'params', path: `params.${key}` } });
}
