import { filterEvents, findEvent, tagsMatch, text } from '@predgate/core';
import type { Event, EventFetchParams, EventFilterCriteria, Page, PageParams, Series, SeriesFetchParams, StatusFilter } from '@predgate/core';
import type { Query } from '../api/client.js';
import type { GammaEvent } from '../api/types.js';
import { gammaMaxPage } from '../config.js';
import type { PolymarketContext } from '../context.js';
import { isGammaId } from '../ids.js';
import { normalizeEvent, normalizeSeries } from '../normalize/events.js';
import { venueId } from '../venue.js';
import { pageWindow, readPages, sortQuery, statusQuery, tagSlug, textMatches } from './list-params.js';

/*
 * Events and series from Gamma. A plain listing pages `/events` by limit and
 * offset; a `query` goes to the fuzzy `public-search`; `category` and a single
 * tag filter at the venue (`tag_slug`), while several tags, `series` and
 * `filter` are applied to what the venue returned.
 */

export async function fetchEvents(ctx: PolymarketContext, params: EventFetchParams = {}): Promise<Event[]> {
  const raw = await rawEvents(ctx, params);
  const events = raw.map(normalizeEvent).filter((event) => keep(event, params));
  return params.filter ? filterEvents(events, params.filter) : events;
}

/**
 * fetchEventsPaginated: one page of `/events/keyset` and the venue's cursor of
 * the next. Gamma refuses offsets past about 2,000 (HTTP 422), so this is the
 * catalog's way through a whole sweep; `fetchEvents` keeps offsets for the
 * shallow pages a caller asks for.
 */
export async function fetchEventsPaginated(ctx: PolymarketContext, params: PageParams<EventFilterCriteria> = {}): Promise<Page<Event>> {
  const status = params.status ?? 'active';
  const answer = await ctx.gamma.eventsKeyset({
    limit: Math.min(params.limit ?? ctx.pageSize, gammaMaxPage),
    ...(status === 'all' ? {} : { closed: status !== 'active' }),
    after_cursor: params.cursor,
  });
  const events = answer.events.map(normalizeEvent).filter((event) => params.series === undefined || inSeries(event, params.series));
  const data = params.filter ? filterEvents(events, params.filter) : events;
  const next = text(answer.next_cursor);
  return next === undefined ? { data } : { data, nextCursor: next };
}

export function fetchEvent(ctx: PolymarketContext, params: EventFetchParams = {}): Promise<Event> {
  return findEvent((query) => fetchEvents(ctx, query), params, venueId);
}

export async function fetchSeries(ctx: PolymarketContext, params: SeriesFetchParams = {}): Promise<Series[]> {
  if (params.id !== undefined && isGammaId(params.id)) {
    const series = await ctx.gamma.series(params.id);
    return series ? [normalizeSeries(series, true)] : [];
  }
  // Series ids are numbers; anything else a caller calls an id is the slug (or ticker, which equals it).
  const slug = params.slug ?? params.id;
  const raw = await readPages(pageWindow(params, ctx.pageSize), gammaMaxPage, (page) =>
    ctx.gamma.seriesList({ ...page, slug, recurrence: params.recurrence, categories_labels: params.category }),
  );
  const query = params.query?.toLowerCase();
  return raw.map((series) => normalizeSeries(series, false)).filter((series) => !query || series.title.toLowerCase().includes(query));
}

/** Venue answer for an event query: by id, by slug, by keyword, or a listing. */
function rawEvents(ctx: PolymarketContext, params: EventFetchParams): Promise<GammaEvent[]> {
  // Lookups by key find closed events too, unless the caller narrows the status.
  const keyStatus = params.status ?? 'all';
  if (params.eventId !== undefined) {
    return isGammaId(params.eventId) ? ctx.gamma.events({ id: params.eventId, ...statusQuery(keyStatus) }) : Promise.resolve([]);
  }
  if (params.slug !== undefined) return ctx.gamma.events({ slug: params.slug, ...statusQuery(keyStatus) });
  return params.query ? searchEvents(ctx, params.query, params) : listEvents(ctx, params);
}

function listEvents(ctx: PolymarketContext, params: EventFetchParams): Promise<GammaEvent[]> {
  const venueFilter = venueTagQuery(params);
  return readPages(pageWindow(params, ctx.pageSize), gammaMaxPage, (page) =>
    ctx.gamma.events({ ...page, ...statusQuery(params.status ?? 'active'), ...sortQuery(params.sort ?? 'volume'), ...venueFilter }),
  );
}

/**
 * `public-search` pages by a 1-based `page` of `limit_per_type` results; an
 * offset that is not a multiple of the limit is served from one larger first page.
 */
async function searchEvents(ctx: PolymarketContext, text: string, params: EventFetchParams): Promise<GammaEvent[]> {
  const { start, limit } = pageWindow(params, ctx.pageSize);
  const aligned = start % limit === 0;
  const status: StatusFilter = params.status ?? 'active';
  const venueFilter = venueTagQuery(params);
  const answer = await ctx.gamma.search({
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
function keep(event: Event, params: EventFetchParams): boolean {
  // The venue filtered by the category, or by the tag when it was the only one.
  const clientTags = params.tags && (params.category || params.tags.length > 1) ? params.tags : undefined;
  const searched = Boolean(params.query) && params.eventId === undefined && params.slug === undefined;
  return (
    (!clientTags || tagsMatch(event.tags, clientTags) || tagsMatch(slugsOf(event), clientTags.map(tagSlug))) &&
    (params.series === undefined || inSeries(event, params.series)) &&
    (!searched || textMatches([event.title, ...event.markets.map((market) => market.title)], event.description, params))
  );
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
