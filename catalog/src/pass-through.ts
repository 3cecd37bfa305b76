import type { EventFetchParams, MarketFetchParams } from '@predgate/core';
import { catalogParams, isCatalogMethod, lookupStatus, statusOf } from './call-params.js';
import type { CatalogMethod } from './call-params.js';
import { marketJson, marketsJson, sourceEventJson, sourceEventsJson, valueJson } from './serialize.js';
import type { JsonWriter } from './json-out.js';
import type { CatalogStore, EventQuery, MarketQuery } from './store.js';

/**
 * Whether a call's parameters are all ones the catalog answers exactly as the
 * venue would; any other sends the call to the venue.
 */
export function catalogCanAnswer(method: string, params: EventFetchParams | MarketFetchParams | undefined): method is CatalogMethod {
  if (!isCatalogMethod(method)) return false;
  const given = params ?? {};
  if (Object.keys(given).some((key) => !catalogParams.has(key))) return false;
  if (given.sort !== undefined && given.sort !== 'volume') return false;
  // Without a limit a venue answers with its own page size, which the catalog cannot know.
  return !(method === 'fetchEvents' || method === 'fetchMarkets') || given.limit !== undefined;
}

/**
 * A venue's pass-through call answered from its catalog, as the JSON of its
 * `data`: exactly the bytes of the live answer (the venue's own events and
 * markets, venue-native ids, convenience references included) and, for
 * lists, in its order. Undefined when the catalog does not hold what a lookup
 * asks for: the venue may have it by now.
 */
export async function answerFromCatalog(
  store: CatalogStore,
  venue: string,
  method: CatalogMethod,
  params: EventFetchParams & MarketFetchParams = {},
): Promise<JsonWriter | undefined> {
  if (params.sourceExchange !== undefined && params.sourceExchange !== venue) {
    return method === 'fetchEvents' || method === 'fetchMarkets' ? valueJson([]) : undefined;
  }
  switch (method) {
    case 'fetchEvents':
      return sourceEventsJson((await store.events(eventQuery(venue, params, params.limit!))).items);
    case 'fetchEvent': {
      const [entry] = (await store.events(eventQuery(venue, params, 1, lookupStatus(params, params.eventId ?? params.slug)))).items;
      return entry && sourceEventJson(entry);
    }
    case 'fetchMarkets':
      return marketsJson((await store.markets(marketQuery(venue, params, params.limit!))).items);
    case 'fetchMarket': {
      const [hit] = (await store.markets(marketQuery(venue, params, 1, lookupStatus(params, params.marketId ?? params.slug ?? params.outcomeId)))).items;
      return hit && marketJson(hit);
    }
  }
}

function eventQuery(venue: string, params: EventFetchParams & MarketFetchParams, limit: number, status = statusOf(params.status)): EventQuery {
  return { venue, status, order: 'venue', limit, offset: params.offset ?? 0, ...venueFilters(params) };
}

function marketQuery(venue: string, params: MarketFetchParams, limit: number, status = statusOf(params.status)): MarketQuery {
  return { venue, status, limit, offset: params.offset ?? 0, ...venueFilters(params) };
}

type VenueFilterParams = Pick<MarketFetchParams, 'query' | 'category' | 'tags' | 'eventId' | 'slug' | 'marketId' | 'outcomeId'>;

/**
 * The call's filters in the catalog's terms, the same for events and markets:
 * each narrows to what the venue's own answer would hold (the slug is the
 * event's for events and the market's for markets, as on the venue).
 */
function venueFilters(params: VenueFilterParams): Partial<EventQuery & MarketQuery> {
  return {
    ...(params.query ? { title: params.query.toLowerCase() } : {}),
    ...(params.category !== undefined ? { venueCategory: params.category.toLowerCase() } : {}),
    ...(params.tags !== undefined ? { tags: params.tags.map((tag) => tag.toLowerCase()) } : {}),
    ...(params.eventId !== undefined ? { venueEventId: params.eventId } : {}),
    ...(params.slug !== undefined ? { slug: params.slug } : {}),
    ...(params.marketId !== undefined ? { marketId: params.marketId } : {}),
    ...(params.outcomeId !== undefined ? { outcomeId: params.outcomeId } : {}),
  };
}
