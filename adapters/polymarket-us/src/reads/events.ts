import { eventListPredicate, unlessMissing } from '@predgate/core';
import type { Event, EventFetchParams } from '@predgate/core';
import { defaultLimit } from '../venue.js';
import type { PolymarketUsContext } from '../context.js';
import { normalizeEvent } from '../normalize/markets.js';
import { pages, statusQuery } from './paging.js';

export async function fetchEvents(ctx: PolymarketUsContext, params: EventFetchParams = {}): Promise<Event[]> {
  const keep = eventListPredicate(params);
  const events = await selectEvents(ctx, params);
  return (keep ? events.filter(keep) : events).slice(0, params.limit ?? defaultLimit);
}

/** Events by slug, by keyword search, or a listing page by page. */
export async function selectEvents(ctx: PolymarketUsContext, params: Omit<EventFetchParams, 'filter'>): Promise<Event[]> {
  const slug = params.eventId ?? params.slug;
  if (slug !== undefined) {
    const answer = await unlessMissing(ctx.api.eventBySlug(slug));
    return answer ? [normalizeEvent(answer.event)] : [];
  }
  const status = params.status ?? 'active';
  if (params.query) {
    const answer = await ctx.api.search({
      query: params.query,
      limit: params.limit ?? defaultLimit,
      ...(status === 'all' ? {} : { status: status === 'active' ? 'active' : 'closed' }),
    });
    return answer.events.map(normalizeEvent);
  }
  const query = {
    ...statusQuery(status),
    ...(params.category ? { categories: params.category.toLowerCase() } : {}),
    ...(params.series ? { seriesSlug: params.series } : {}),
  };
  return (await pages((limit, offset) => ctx.api.events({ ...query, limit, offset }).then((page) => page.events), params)).map(normalizeEvent);
}
