import { collectOffsetPages, eventListPredicate, notSupported, unlessMissing } from '@predgate/core';
import type { Event, EventFetchParams, StatusFilter } from '@predgate/core';
import { defaultLimit } from '../venue.js';
import type { GeminiContext } from '../context.js';
import { normalizeEvent, seriesCodeOf } from '../normalize/events.js';

const pageSize = 500;
const maxPages = 10;

export async function fetchEvents(ctx: GeminiContext, params: EventFetchParams = {}): Promise<Event[]> {
  const events = remember(ctx, await selectEvents(ctx, params));
  const keep = eventListPredicate(params);
  return (keep ? events.filter(keep) : events).slice(0, params.limit ?? defaultLimit);
}

export function remember(ctx: GeminiContext, events: Event[]): Event[] {
  for (const event of events) for (const market of event.markets) ctx.eventOfSymbol.set(market.marketId, event.id);
  return events;
}

export async function eventOf(ctx: GeminiContext, ticker: string): Promise<Event | undefined> {
  const raw = await unlessMissing(ctx.api.event(ticker));
  return raw && remember(ctx, [normalizeEvent(raw)])[0];
}

/** Events by ticker, or the listing's pages (500 a page) of the wanted statuses; `query` is the venue's title search; `series` is matched on each event's series code. */
export async function selectEvents(ctx: GeminiContext, params: EventFetchParams): Promise<Event[]> {
  if (params.slug !== undefined && params.eventId === undefined) {
    throw notSupported('fetchEvents', 'Gemini looks events up by ticker only; give eventId (the ticker)');
  }
  if (params.eventId !== undefined) {
    const event = await eventOf(ctx, params.eventId);
    return event ? [event] : [];
  }
  if (params.series !== undefined) {
    // The venue filters no listing by series: every page of the wanted statuses is read and narrowed here.
    const listed = await selectEvents(ctx, { ...params, series: undefined, offset: 0, limit: pageSize * maxPages });
    return listed.filter((event) => seriesCodeOf(event.sourceMetadata?.series) === params.series).slice(params.offset ?? 0);
  }
  const query = {
    ...statusQuery(params.status ?? 'active'),
    ...(params.category === undefined ? {} : { category: params.category }),
    ...(params.query === undefined ? {} : { search: params.query }),
  };
  const raws = await collectOffsetPages((offset, limit) => ctx.api.events({ ...query, limit, offset }).then((page) => page.data), {
    offset: params.offset,
    limit: params.limit ?? defaultLimit,
    pageSize,
    maxPages,
  });
  return raws.map(normalizeEvent);
}

function statusQuery(status: StatusFilter): { status?: string[] } {
  if (status === 'all') return {};
  return { status: status === 'active' ? ['active'] : ['closed', 'settled'] };
}
