import { eventListPredicate, findEvent, unlessMissing } from '@predgate/core';
import type { Event, EventFetchParams, EventFilterCriteria, Page, PageParams } from '@predgate/core';
import { segment } from '../api/client.js';
import type { RawEvent, RawMarket } from '../api/types.js';
import type { KalshiContext } from '../context.js';
import { ticker } from '../ids.js';
import { normalizeEvent } from '../normalize/event.js';
import type { SeriesInfo } from '../normalize/event.js';
import { sweepEvents } from './event-sweep.js';
import type { SweepRequest } from './event-sweep.js';
import { sortItems, wantsTags } from './list-params.js';
import { seriesInfoOf } from './series.js';
import { checked } from '../api/schemas.js';

/**
 * fetchEvents: a direct lookup by `eventId`/`slug`, else a sweep of the
 * status's pages that stops once `offset + limit` events pass the
 * client-side filters. Without a `limit`, one page's worth.
 */
export async function fetchEvents(ctx: KalshiContext, params: EventFetchParams = {}): Promise<Event[]> {
  const key = params.eventId ?? params.slug;
  if (key !== undefined) {
    const found = await eventOrNothing(ctx, key);
    return found ? [found] : [];
  }
  const offset = params.offset ?? 0;
  const limit = params.limit ?? ctx.config.pageSize;
  const { items } = await sweepEvents(ctx, {
    status: params.status,
    series: params.series,
    cursor: params.cursor,
    // Sorting needs everything the page cap allows to be seen first.
    wanted: params.sort ? Number.POSITIVE_INFINITY : offset + limit,
    ...(await eventSelection(ctx, params)),
  });
  return sortItems(items, params.sort).slice(offset, offset + limit);
}

/**
 * fetchEventsPaginated: one page and the cursor of the next, the catalog's
 * way through an all-status sweep.
 */
export async function fetchEventsPage(ctx: KalshiContext, params: PageParams<EventFilterCriteria> = {}): Promise<Page<Event>> {
  const limit = params.limit ?? ctx.config.pageSize;
  const { items, next } = await sweepEvents(ctx, {
    status: params.status,
    series: params.series,
    cursor: params.cursor,
    wanted: limit,
    ...(await eventSelection(ctx, { filter: params.filter })),
  });
  return next === undefined ? { data: items } : { data: items, nextCursor: next };
}

/** fetchEvent: by ticker (`eventId` or `slug`), else the first event the fetchEvents parameters find. */
export async function fetchEvent(ctx: KalshiContext, params: EventFetchParams = {}): Promise<Event> {
  const key = params.eventId ?? params.slug;
  if (key !== undefined) return eventByTicker(ctx, key);
  // The first match is all that is wanted: one is enough to stop paging.
  return findEvent((query) => fetchEvents(ctx, { ...query, limit: query.limit ?? 1 }), params, ctx.origin.exchange);
}

/**
 * One event with its markets, enriched with its series' tags and category.
 * The enrichment is a second call whose failure only leaves the tags out.
 */
async function eventByTicker(ctx: KalshiContext, key: string): Promise<Event> {
  const answer = checked<{ event: RawEvent; markets?: RawMarket[] }>(
    'GET /events/{ticker}',
    ctx.origin.exchange,
    await ctx.api.get<unknown>(`/events/${segment(ticker(key))}`, { with_nested_markets: true }),
  );
  const { event } = answer;
  if (event.series_ticker) {
    for (const market of event.markets ?? answer.markets ?? []) ctx.seriesTickers.set(market.ticker, event.series_ticker);
  }
  const series = await seriesInfoOf(ctx, event.series_ticker);
  return normalizeEvent(event, ctx.origin, series, answer.markets);
}

/**
 * fetchEventMetadata: Kalshi's own metadata object of an event (images,
 * market colours, settlement sources), unmodified; EVENT_NOT_FOUND for an
 * unknown ticker.
 */
export function fetchEventMetadata(ctx: KalshiContext, eventTicker: string): Promise<Record<string, unknown>> {
  return ctx.api.get<Record<string, unknown>>(`/events/${segment(ticker(eventTicker))}/metadata`);
}

/** The event, or undefined when the venue knows no such ticker. */
export function eventOrNothing(ctx: KalshiContext, key: string): Promise<Event | undefined> {
  return unlessMissing(eventByTicker(ctx, key));
}

/** How a sweep turns raw events into matching unified events. */
async function eventSelection(ctx: KalshiContext, params: EventFetchParams): Promise<Pick<SweepRequest<Event>, 'select' | 'onePerEvent'>> {
  const matches = eventListPredicate(params);
  const series: Map<string, SeriesInfo> | undefined = wantsTags(params) ? await ctx.seriesDirectory.byTicker(ctx) : undefined;
  return {
    select: (raw) => {
      const event = normalizeEvent(raw, ctx.origin, raw.series_ticker ? series?.get(raw.series_ticker) : undefined);
      return matches === undefined || matches(event) ? [event] : [];
    },
    onePerEvent: matches === undefined,
  };
}
