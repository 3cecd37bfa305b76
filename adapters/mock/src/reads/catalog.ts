import { eventListPredicate, marketListPredicate } from '@predgate/core';
import type {
  Event,
  EventFetchParams,
  EventFilterCriteria,
  Market,
  MarketFetchParams,
  MarketFilterCriteria,
  PageParams,
  SeriesFetchParams,
  StatusFilter,
} from '@predgate/core';
import type { MockContext } from '../context.js';
import { eventNotFound } from '../errors.js';
import type { SimulatedVenue } from '../simulation/venue.js';
import { served } from './checked.js';
import { pageOf } from './pages.js';

export const fetchEvents = async ({ venue }: MockContext, params: EventFetchParams = {}) =>
  served('events', pageOf(selectEvents(venue, params), params).data, params.eventId !== undefined || params.slug !== undefined);

export async function fetchEventsPaginated({ venue }: MockContext, params: PageParams<EventFilterCriteria> = {}) {
  const page = pageOf(selectEvents(venue, { filter: params.filter, status: params.status, series: params.series }), params);
  return { ...page, data: served('events', page.data, false) };
}

export const fetchMarkets = async ({ venue }: MockContext, params: MarketFetchParams = {}) =>
  served(
    'markets',
    pageOf(selectMarkets(venue, params), params).data,
    params.marketId !== undefined || params.outcomeId !== undefined || params.slug !== undefined,
  );

export async function fetchMarketsPaginated({ venue }: MockContext, params: PageParams<MarketFilterCriteria> = {}) {
  const page = pageOf(selectMarkets(venue, { filter: params.filter, status: params.status, series: params.series }), params);
  return { ...page, data: served('markets', page.data, false) };
}

export async function fetchEventMetadata({ venue }: MockContext, eventTicker: string): Promise<Record<string, unknown>> {
  const event = venue.catalog.event(eventTicker);
  if (!event) throw eventNotFound(eventTicker);
  return {
    eventId: event.id,
    slug: event.slug,
    ...event.sourceMetadata,
    marketCount: event.markets.length,
    rules: event.description,
    settlementSources: [{ name: 'Predgate simulation', url: event.url }],
  };
}

export async function fetchSeries({ venue }: MockContext, params: SeriesFetchParams = {}) {
  const query = params.query?.toLowerCase();
  const series = venue.catalog.series.filter(
    (item) =>
      (params.id === undefined || item.id === params.id) &&
      (params.slug === undefined || item.slug === params.slug) &&
      (params.recurrence === undefined || item.recurrence === params.recurrence) &&
      (params.category === undefined || item.category?.toLowerCase() === params.category.toLowerCase()) &&
      (query === undefined || item.title.toLowerCase().includes(query)),
  );
  return pageOf(series, params).data;
}

function selectEvents({ catalog }: SimulatedVenue, params: EventFetchParams): Event[] {
  const tests: Array<(event: Event) => boolean> = [];
  if (params.eventId !== undefined) tests.push((event) => event.id === params.eventId);
  if (params.slug !== undefined) tests.push((event) => event.slug === params.slug);
  if (params.series !== undefined) tests.push((event) => event.sourceMetadata?.series === params.series);
  const listed = eventListPredicate(params);
  if (listed) tests.push(listed);
  const pool = byStatus(catalog.events, params.status);
  const events = tests.length === 0 ? pool : pool.filter((event) => tests.every((test) => test(event)));
  return sortBy(events, params.sort, (event) => ({
    liquidity: event.markets.reduce((sum, market) => sum + market.liquidity, 0),
    createdAt: String(event.sourceMetadata?.createdAt ?? ''),
  }));
}

function selectMarkets({ catalog }: SimulatedVenue, params: MarketFetchParams): Market[] {
  const tests: Array<(market: Market) => boolean> = [];
  if (params.outcomeId !== undefined) {
    const holder = catalog.outcome(params.outcomeId)?.market.marketId;
    tests.push((market) => market.marketId === holder);
  }
  if (params.marketId !== undefined) tests.push((market) => market.marketId === params.marketId);
  if (params.eventId !== undefined) tests.push((market) => market.eventId === params.eventId);
  if (params.slug !== undefined) tests.push((market) => market.slug === params.slug);
  if (params.series !== undefined) tests.push((market) => catalog.event(market.eventId!)?.sourceMetadata?.series === params.series);
  const listed = marketListPredicate(params);
  if (listed) tests.push(listed);
  const pool = byStatus(catalog.markets, params.status);
  const markets = tests.length === 0 ? pool : pool.filter((market) => tests.every((test) => test(market)));
  return sortBy(markets, params.sort, (market) => ({
    liquidity: market.liquidity,
    createdAt: String(catalog.event(market.eventId!)?.sourceMetadata?.createdAt ?? ''),
  }));
}

/** `active` (the default): still trading; `closed`/`inactive`: no longer trading; `all`: no filter. */
function byStatus<T extends Event | Market>(items: T[], status: StatusFilter = 'active'): T[] {
  if (status === 'all') return items;
  const lists = (statusLists.get(items) as { active: T[]; closed: T[] } | undefined) ?? splitByStatus(items);
  return status === 'active' ? lists.active : lists.closed;
}

// Lists are split once per catalog: an unfiltered page is then a slice.
const statusLists = new WeakMap<object, { active: unknown[]; closed: unknown[] }>();

function splitByStatus<T extends Event | Market>(items: T[]): { active: T[]; closed: T[] } {
  const trading = (item: T) => ('markets' in item ? item.markets.some((market) => market.status === 'active') : item.status === 'active');
  const lists = { active: items.filter(trading), closed: items.filter((item) => !trading(item)) };
  statusLists.set(items, lists);
  return lists;
}

function sortBy<T extends { volume24h: number }>(items: T[], sort: EventFetchParams['sort'], keys: (item: T) => { liquidity: number; createdAt: string }): T[] {
  // The catalog is already in volume order.
  if (sort === undefined || sort === 'volume') return items;
  const keyed = items.map((item) => ({ item, ...keys(item) }));
  keyed.sort(sort === 'liquidity' ? (a, b) => b.liquidity - a.liquidity : (a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  return keyed.map(({ item }) => item);
}
