import { collectOffsetPages, eventListPredicate, notSupported, unlessMissing } from '@predgate/core';
import type { Event, EventFetchParams, QueryValue, StatusFilter } from '@predgate/core';
import type { MetaculusContext } from '../context.js';
import { normalizePost } from '../normalize/events.js';

const pageSize = 100;
export const defaultLimit = 100;

export async function fetchEvents(ctx: MetaculusContext, params: EventFetchParams = {}): Promise<Event[]> {
  const events = await selectEvents(ctx, params);
  const keep = eventListPredicate(params);
  // The venue's order (most forecast first): there is no volume to rank by, and the listing is paged by the venue.
  return (keep ? events.filter(keep) : events).slice(0, params.limit ?? defaultLimit);
}

/** Posts by id, or one window of the listing (paged by offset, 100 a page) of the wanted statuses. */
export async function selectEvents(ctx: MetaculusContext, params: EventFetchParams): Promise<Event[]> {
  if (params.slug !== undefined && params.eventId === undefined) {
    throw notSupported('fetchEvents', 'Metaculus looks posts up by numeric id only; give eventId (the post id)');
  }
  if (params.eventId !== undefined) {
    if (!/^\d{1,12}$/.test(params.eventId)) return [];
    const post = await unlessMissing(ctx.api.post(Number(params.eventId)));
    const event = post && normalizePost(post);
    return event ? [event] : [];
  }
  const query: Record<string, QueryValue> = {
    with_cp: true,
    include_descriptions: true,
    statuses: statusesOf(params.status ?? 'active'),
    order_by: '-forecasts_count',
    ...(params.series === undefined ? {} : { tournaments: params.series }),
  };
  const posts = await collectOffsetPages((offset, limit) => ctx.api.posts({ ...query, limit, offset }).then((page) => page.results), {
    offset: params.offset,
    limit: params.limit ?? defaultLimit,
    pageSize,
    maxPages: 10,
  });
  return posts.map(normalizePost).filter((event): event is Event => event !== undefined);
}

function statusesOf(status: StatusFilter): string[] {
  if (status === 'active') return ['open'];
  if (status === 'all') return ['open', 'upcoming', 'closed', 'resolved'];
  return ['closed', 'resolved'];
}
