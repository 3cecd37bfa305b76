import { PredgateError, collectingDrift, compact, eventListPredicate, invalidArgument, isPredgateError, marketListPredicate } from '@predgate/core';
import type { Event, EventFetchParams, Market, MarketFetchParams, StatusFilter } from '@predgate/core';
import { pageSize } from '../api/client.js';
import type { MarketQuery, OpinionApi } from '../api/client.js';
import type { RawMarket } from '../api/schemas.js';
import { venue } from '../venue.js';
import { isCategorical, marketsOf, toEvent } from '../normalize/catalog.js';
import { priceMarkets } from './prices.js';

/** Upper bound on listing pages one call reads (20 items each): every Opinion market today fits well within it. */
const maxPages = 100;

/**
 * Events and markets. Opinion has no search and pages 20 items at a time, so
 * text, category and tag criteria are applied here while paging; the result
 * is then priced, one latest-price call per market returned.
 */
export function catalogReads(api: OpinionApi) {
  /**
   * Listing items mapped and kept until `offset + limit` are collected (all, up to `maxPages`, without a limit).
   * Where each listing item is one result and none is filtered out (events without criteria), the offset
   * names the venue page to start on, so the catalog's sweep by offset reads each page once. `order` puts
   * what was read in order before the offset and limit are applied.
   */
  async function walk<T>(
    params: EventFetchParams | MarketFetchParams,
    items: (raw: RawMarket) => T[],
    options: { keep?: ((item: T) => boolean) | undefined; oneEach?: boolean; order?: (a: T, b: T) => number } = {},
  ): Promise<T[]> {
    const { keep, oneEach = false, order } = options;
    const skippedPages = oneEach && !keep ? Math.floor((params.offset ?? 0) / pageSize) : 0;
    const offset = (params.offset ?? 0) - skippedPages * pageSize;
    const wanted = params.limit === undefined ? undefined : offset + params.limit;
    const query: Omit<MarketQuery, 'page'> = { limit: pageSize, marketType: 2, sortBy: params.sort === 'newest' ? 1 : 5, ...statusQuery(params.status) };
    const found: T[] = [];
    for (let page = skippedPages + 1; page <= skippedPages + maxPages; page += 1) {
      const { value, reports } = await collectingDrift(() => api.markets({ ...query, page }));
      const { list, total } = value;
      for (const raw of list ?? []) found.push(...items(raw).filter((item) => !keep || keep(item)));
      // A listing item left out as unreadable was still sent: the page is full, not the last.
      const sent = (list?.length ?? 0) + reports.filter(isListingItem).length;
      const exhausted = sent < pageSize || (typeof total === 'number' && page * pageSize >= total);
      if (exhausted || (wanted !== undefined && found.length >= wanted)) break;
    }
    return (order ? found.sort(order) : found).slice(offset, wanted);
  }

  async function eventById(eventId: string): Promise<RawMarket> {
    assertMarketId('params.eventId', eventId);
    const categorical = await api.categorical(eventId).catch(unlessVenueRefusal);
    if (categorical && isCategorical(categorical)) return categorical;
    // A binary market is an event of its own, read from the binary endpoint.
    const binary = await api.market(eventId).catch((error: unknown) => {
      throw asNotFound(error, 'EVENT_NOT_FOUND');
    });
    if (!binary) throw notFound('EVENT_NOT_FOUND', { eventId });
    return binary;
  }

  async function fetchEvent(params: EventFetchParams = {}): Promise<Event> {
    if (params.eventId === undefined && params.slug === undefined) {
      const [first] = await fetchEvents({ ...params, limit: 1 });
      if (!first) throw notFound('EVENT_NOT_FOUND', { query: params.query });
      return first;
    }
    const raw = params.eventId !== undefined ? await eventById(params.eventId) : await eventBySlug(params.slug!);
    return pricedEvent(toEvent(raw));
  }

  async function eventBySlug(slug: string): Promise<RawMarket> {
    const raw = await api.marketBySlug(slug).catch((error: unknown) => {
      throw asNotFound(error, 'EVENT_NOT_FOUND');
    });
    if (!raw) throw notFound('EVENT_NOT_FOUND', { slug });
    // The slug endpoint answers with the market object; a categorical parent's children come from its own endpoint.
    return isCategorical(raw) && !raw.childMarkets?.length ? eventById(String(raw.marketId)) : raw;
  }

  async function pricedEvent(event: Event): Promise<Event> {
    return { ...event, markets: await priceMarkets(api, event.markets) };
  }

  async function fetchEvents(params: EventFetchParams = {}): Promise<Event[]> {
    if (params.eventId !== undefined || params.slug !== undefined) return absentAsEmpty(async () => [await fetchEvent(params)]);
    const events = await walk(params, (raw) => [toEvent(raw)], { keep: eventListPredicate(params), oneEach: true });
    return Promise.all(events.map(pricedEvent));
  }

  async function marketById(marketId: string): Promise<Market> {
    assertMarketId('params.marketId', marketId);
    const raw = await api.market(marketId);
    // A categorical parent is an event; its markets are its children.
    if (!raw || isCategorical(raw)) throw notFound('MARKET_NOT_FOUND', { marketId });
    return marketsOf(raw)[0]!;
  }

  async function marketBySlug(slug: string): Promise<Market> {
    const raw = await api.marketBySlug(slug);
    if (!raw || isCategorical(raw)) throw notFound('MARKET_NOT_FOUND', { slug });
    return marketsOf(raw)[0]!;
  }

  async function fetchMarket(params: MarketFetchParams = {}): Promise<Market> {
    if (params.marketId !== undefined) return (await priceMarkets(api, [await marketById(params.marketId)]))[0]!;
    if (params.slug !== undefined) return (await priceMarkets(api, [await marketBySlug(params.slug)]))[0]!;
    const [first] = await fetchMarkets({ ...params, limit: 1 });
    if (!first) throw notFound('MARKET_NOT_FOUND', { outcomeId: params.outcomeId, query: params.query });
    return first;
  }

  async function fetchMarkets(params: MarketFetchParams = {}): Promise<Market[]> {
    if (params.marketId !== undefined || params.slug !== undefined) return absentAsEmpty(async () => [await fetchMarket(params)]);
    const criteria = marketListPredicate(params);
    if (params.eventId !== undefined) {
      const markets = await absentAsEmpty(async () => (await fetchEvent({ eventId: params.eventId })).markets);
      return criteria ? markets.filter(criteria) : markets;
    }
    // Opinion cannot look a token up: the market holding an outcome is found in the listing.
    const outcomeId = params.outcomeId;
    const keep =
      outcomeId === undefined ? criteria : (market: Market) => market.outcomes.some((each) => each.outcomeId === outcomeId) && (!criteria || criteria(market));
    // Opinion orders its listing by the parent's 24h volume, children in their parent's place: the markets read are put in
    // 24h-volume order (the unified default) so a page agrees with the catalog's order.
    const order = params.sort === 'newest' ? undefined : (a: Market, b: Market) => b.volume24h - a.volume24h;
    return priceMarkets(api, await walk(params, marketsOf, { keep, ...(order ? { order } : {}) }));
  }

  return { fetchEvents, fetchEvent, fetchMarkets, fetchMarket, marketById };
}

export type CatalogReads = ReturnType<typeof catalogReads>;

/** A drift report of a whole listing item (`result.list.3.status`), not of a child inside one (`result.list.3.childMarkets.1.volume`). */
function isListingItem(report: PredgateError): boolean {
  return /^result\.list\.\d+\.(?!childMarkets\.)/.test(String(report.detail?.field));
}

function statusQuery(status: StatusFilter | undefined): Pick<MarketQuery, 'status'> {
  if (status === 'all') return {};
  if (status === 'closed' || status === 'inactive') return { status: 'resolved' };
  return { status: 'activated' };
}

/** Market and event ids are integers on Opinion; anything else cannot name one. */
function assertMarketId(path: string, id: string): void {
  if (!/^\d{1,15}$/.test(id)) throw invalidArgument(path, `"${path}" must be an Opinion market id (an integer), got "${id}"`);
}

function notFound(code: 'EVENT_NOT_FOUND' | 'MARKET_NOT_FOUND', given: Record<string, unknown>): PredgateError {
  const detail = compact(given);
  const key = Object.values(detail)[0];
  return new PredgateError(code, `${code === 'EVENT_NOT_FOUND' ? 'Event' : 'Market'} not found on ${venue}: ${String(key ?? '')}`.trim(), {
    exchange: venue,
    detail,
  });
}

/** An envelope refusal (HTTP 200, non-zero errno) on a lookup reads as "nothing there"; anything else is rethrown. */
function unlessVenueRefusal(error: unknown): null {
  if (isPredgateError(error) && error.detail?.status === 200 && (error.code === 'EVENT_NOT_FOUND' || error.code === 'BAD_REQUEST')) return null;
  throw error;
}

function asNotFound(error: unknown, code: 'EVENT_NOT_FOUND' | 'MARKET_NOT_FOUND'): unknown {
  if (!isPredgateError(error) || !['MARKET_NOT_FOUND', 'EVENT_NOT_FOUND', 'NOT_FOUND'].includes(error.code)) return error;
  return new PredgateError(code, error.message, { exchange: venue, detail: error.detail });
}

/** A list call naming one item answers an empty list when there is no such item. */
async function absentAsEmpty<T>(read: () => Promise<T[]>): Promise<T[]> {
  try {
    return await read();
  } catch (error) {
    if (isPredgateError(error) && (error.code === 'EVENT_NOT_FOUND' || error.code === 'MARKET_NOT_FOUND')) return [];
    throw error;
  }
}
