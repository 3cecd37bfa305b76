import { collectOffsetPages, eventListPredicate } from '@predgate/core';
import type { Event, EventFetchParams } from '@predgate/core';
import type { TemplateContext } from '../context.js';
import { toEvent } from '../normalize/events.js';

const pageSize = 100;

export async function fetchEvents(ctx: TemplateContext, params: EventFetchParams = {}): Promise<Event[]> {
  const raw = await collectOffsetPages((offset, limit) => ctx.api.events({ offset, limit, ...(params.query ? { q: params.query } : {}) }), {
    offset: params.offset,
    limit: params.limit,
    pageSize,
    maxPages: 20,
  });
  // What the venue cannot filter on is applied here, as SPEC.md says.
  const events = raw.map(toEvent);
  const keep = eventListPredicate(params);
  return keep ? events.filter(keep) : events;
}
