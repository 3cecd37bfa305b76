import { filterEvents, filterMarkets, findEvent, pick, PredgateError, tagsMatch } from '@predgate/core';
import type { Event, EventFetchParams, Market, MarketFetchParams, Series, SeriesFetchParams, StatusFilter } from '@predgate/core';
import type { Query } from '../api/client.js';
import type { GammaApi } from '../api/gamma.js';
import type { GammaEvent } from '../api/types.js';
import { gammaMaxPage } from '../config.js';
import { normalizeEvent, normalizeSeries } from '../normalize/events.js';
import { normalizeMarket } from '../normalize/markets.js';
import { venueId } from '../venue.js';
import { pageWindow, readPages, sortQuery, statusQuery, tagSlug } from './gamma-queries.js';
import { isGammaId } from './identifiers.js';
import type { MarketLookup, MarketRecord } from './lookup.js';

/**
 * Events, markets and series from Gamma. A plain listing pages `/events` (or
 * `/markets`) by limit and offset; a `query` goes to the fuzzy `public-search`;
 * `category` and a single tag filter at the venue (`tag_slug`), while several
 * tags, `series` and `filter` are applied to what the venue returned.
 */
export class CatalogReads {
  constructor(
    private readonly gamma: GammaApi,
    private readonly lookup: MarketLookup,
    private readonly pageSize: number,
  ) {}

  async fetchEvents(params: EventFetchParams = {}): Promise<Event[]> {
    if (!servesExchange(params.sourceExchange)) return [];
    const raw = await this.rawEvents(params);
    const events = raw.map(normalizeEvent).filter((event) => this.keep(event, params));
    return params.filter ? filterEvents(events, params.filter) : events;
  }

  fetchEvent(params: EventFetchParams = {}): Promise<Event> {
    return findEvent((query) => this.fetchEvents(query), params, venueId);
  }

  async fetchMarkets(params: MarketFetchParams = {}): Promise<Market[]> {
    if (!servesExchange(params.sourceExchange)) return [];
    const markets = await this.selectMarkets(params);
    return params.filter ? filterMarkets(markets, params.filter) : markets;
  }

  /** One market by `marketId` (Gamma id or condition id), `slug` or `outcomeId`; else the first of the listing. */
  async fetchMarket(params: MarketFetchParams = {}): Promise<Market> {
    const [market] = await this.fetchMarkets(params);
    if (!market) {
      const key = params.marketId ?? params.slug ?? params.outcomeId ?? params.query ?? '';
      throw new PredgateError('MARKET_NOT_FOUND', `Market not found: ${key}`.trim(), {
        exchange: venueId,
        detail: pick(params, ['marketId', 'slug', 'outcomeId', 'query']),
      });
    }
    return market;
  }

  async fetchSeries(params: SeriesFetchParams = {}): Promise<Series[]> {
    if (params.id !== undefined && isGammaId(params.id)) {
      const series = await this.gamma.series(params.id);
      return series ? [normalizeSeries(series, true)] : [];
    }
    // Series ids are numbers; anything else a caller calls an id is the slug (or ticker, which equals it).
    const slug = params.slug ?? params.id;
    const window = pageWindow(params, this.pageSize);
    const raw = await readPages(window, gammaMaxPage, (page) =>
      this.gamma.seriesList({ ...page, slug, recurrence: params.recurrence, categories_labels: params.category }),
    );
    const query = params.query?.toLowerCase();
    return raw.map((series) => normalizeSeries(series, false)).filter((series) => !query || series.title.toLowerCase().includes(query));
  }

  /** Venue answer for an event query: by id, by slug, by keyword, or a listing. */
  private async rawEvents(params: EventFetchParams): Promise<GammaEvent[]> {
    // Lookups by key find closed events too, unless the caller narrows the status.
    const keyStatus = params.status ?? 'all';
    if (params.eventId !== undefined) {
      return isGammaId(params.eventId) ? this.gamma.events({ id: params.eventId, ...statusQuery(keyStatus) }) : [];
    }
    if (params.slug !== undefined) return this.gamma.events({ slug: params.slug, ...statusQuery(keyStatus) });
    return params.query ? this.searchEvents(params.query, params) : this.listEvents(params);
  }

  private listEvents(params: EventFetchParams): Promise<GammaEvent[]> {
    const venueFilter = venueTagQuery(params);
    return readPages(pageWindow(params, this.pageSize), gammaMaxPage, (page) =>
      this.gamma.events({ ...page, ...statusQuery(params.status ?? 'active'), ...sortQuery(params.sort ?? 'volume'), ...venueFilter }),
    );
  }

  /**
   * `public-search` pages by a 1-based `page` of `limit_per_type` results; an
   * offset that is not a multiple of the limit is served from one larger first page.
   */
  private async searchEvents(text: string, params: EventFetchParams): Promise<GammaEvent[]> {
    const { start, limit } = pageWindow(params, this.pageSize);
    const aligned = start % limit === 0;
    const status: StatusFilter = params.status ?? 'active';
    const venueFilter = venueTagQuery(params);
    const answer = await this.gamma.search({
      q: text,
      limit_per_type: aligned ? limit : start + limit,
      page: aligned ? start / limit + 1 : 1,
      ...(status === 'all' ? {} : { events_status: status === 'active' ? 'active' : 'closed' }),
      // Resolved markets are left out of search results unless asked for.
      ...(status === 'active' ? {} : { keep_closed_markets: 1 }),
      ...(venueFilter.tag_slug === undefined ? {} : { events_tag: venueFilter.tag_slug }),
      ...sortQuery(params.sort, 'sort'),
    });
    const events = answer.events ?? [];
    return aligned ? events : events.slice(start, start + limit);
  }

  /** What the venue could not filter: several tags, the parent series, the search scope. */
  private keep(event: Event, params: EventFetchParams): boolean {
    // The venue filtered by the category, or by the tag when it was the only one.
    const clientTags = params.tags && (params.category || params.tags.length > 1) ? params.tags : undefined;
    const searched = Boolean(params.query) && params.eventId === undefined && params.slug === undefined;
    return (
      (!clientTags || tagsMatch(event.tags, clientTags) || tagsMatch(slugsOf(event), clientTags.map(tagSlug))) &&
      (params.series === undefined || inSeries(event, params.series)) &&
      (!searched || textMatches([event.title, ...event.markets.map((market) => market.title)], event.description, params))
    );
  }

  private async selectMarkets(params: MarketFetchParams): Promise<Market[]> {
    const keyed = await this.marketsByKey(params);
    if (keyed) return keyed.map(({ market, event }) => normalizeMarket(market, event));
    const window = pageWindow(params, this.pageSize);
    if (params.query || params.category || params.tags || params.series) {
      // Only events carry tags, series and search hits: their markets are the answer, cut to `limit`.
      const events = await this.fetchEvents({ ...params, filter: undefined });
      const markets = events.flatMap((event) =>
        event.markets.filter((market) => !params.query || textMatches([market.title, event.title], market.description, params)),
      );
      return markets.slice(0, window.limit);
    }
    const raw = await readPages(window, gammaMaxPage, (page) =>
      this.gamma.markets({ ...page, ...statusQuery(params.status ?? 'active'), ...sortQuery(params.sort ?? 'volume') }),
    );
    return raw.map((market) => normalizeMarket(market));
  }

  /** Markets named by key; undefined when the call names none. */
  private async marketsByKey(params: MarketFetchParams): Promise<MarketRecord[] | undefined> {
    const single = (record: MarketRecord | undefined) => (record ? [record] : []);
    if (params.marketId !== undefined) return single(await this.lookup.byMarketId(params.marketId));
    if (params.slug !== undefined) return single(await this.lookup.bySlug(params.slug));
    if (params.outcomeId !== undefined) {
      const market = await this.lookup.byToken(params.outcomeId);
      return market ? [{ market }] : [];
    }
    if (params.eventId !== undefined) {
      const events = isGammaId(params.eventId) ? await this.gamma.events({ id: params.eventId }) : [];
      return events.flatMap((event) => (event.markets ?? []).map((market) => ({ market, event })));
    }
    return undefined;
  }
}

function servesExchange(sourceExchange: string | undefined): boolean {
  return sourceExchange === undefined || sourceExchange.toLowerCase() === venueId;
}

/** The tag filter Gamma applies itself: the category, else a single tag. */
function venueTagQuery(params: EventFetchParams): Query {
  if (params.category) return { tag_slug: tagSlug(params.category) };
  if (params.tags?.length === 1) return { tag_slug: tagSlug(params.tags[0]!) };
  return {};
}

function slugsOf(event: Event): string[] {
  return (event.tags ?? []).map(tagSlug);
}

function inSeries(event: Event, series: string): boolean {
  const metadata = event.sourceMetadata ?? {};
  const parent = (metadata.series ?? {}) as Record<string, unknown>;
  return [metadata.seriesSlug, parent.id, parent.ticker, parent.slug].some((value) => value !== undefined && String(value) === series);
}

/**
 * The venue's search is fuzzy; a hit must contain every word of the query in
 * the chosen scope (`title` by default).
 */
function textMatches(titles: string[], description: string, params: Pick<EventFetchParams, 'query' | 'searchIn'>): boolean {
  const scope = params.searchIn ?? 'title';
  const inTitles = titles.join('\n');
  const haystack = (scope === 'title' ? inTitles : scope === 'description' ? description : `${inTitles}\n${description}`).toLowerCase();
  return (params.query ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}
