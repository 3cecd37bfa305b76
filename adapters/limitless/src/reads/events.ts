import { eventListPredicate, notSupported } from '@predgate/core';
import type { Event, EventFetchParams } from '@predgate/core';
import type { RawMarket } from '../api/schemas.js';
import { defaultLimit, pagePerRequest } from '../venue.js';
import type { LimitlessContext } from '../context.js';
import { normalizeEvent } from '../normalize/events.js';
import { marketBySlug, rememberEvents } from './lookups.js';

export async function fetchEvents(ctx: LimitlessContext, params: EventFetchParams = {}): Promise<Event[]> {
  const events = rememberEvents(ctx, await selectEvents(ctx, params));
  // The venue's search is semantic ("bitcoin" finds "BTC up or down"): its hits are kept, not re-filtered by the words.
  const keep = eventListPredicate({ ...params, query: undefined });
  return keep ? events.filter(keep) : events;
}

/**
 * Events by slug, by semantic search, or from the active listing (the venue
 * lists active markets only; closed ones are reachable by slug or search).
 * The listing pages by 25.
 */
export async function selectEvents(ctx: LimitlessContext, params: EventFetchParams): Promise<Event[]> {
  const slug = params.eventId ?? params.slug;
  if (slug !== undefined) {
    const raw = await marketBySlug(ctx, slug);
    return raw ? [normalizeEvent(raw)] : [];
  }
  if (params.series !== undefined) return [];
  const status = params.status ?? 'active';
  const limit = params.limit ?? defaultLimit;
  const offset = params.offset ?? 0;
  if (params.query) {
    const { markets } = await ctx.api.search(params.query, Math.min(100, offset + limit), 1);
    const closed = (raw: RawMarket) => raw.expired === true || (raw.winningOutcomeIndex !== null && raw.winningOutcomeIndex !== undefined);
    return markets
      .filter((raw) => status === 'all' || (status === 'active') !== closed(raw))
      .map(normalizeEvent)
      .slice(offset, offset + limit);
  }
  if (status === 'closed' || status === 'inactive') {
    throw notSupported('fetchEvents', 'Limitless lists active markets only; closed ones are found by slug or by search (query)');
  }
  const firstPage = Math.floor(offset / pagePerRequest) + 1;
  const raws: RawMarket[] = [];
  for (let page = firstPage; page < firstPage + 40 && raws.length < offset - (firstPage - 1) * pagePerRequest + limit; page += 1) {
    const { data } = await ctx.api.active(page, pagePerRequest);
    raws.push(...data);
    if (data.length < pagePerRequest) break;
  }
  const skip = offset - (firstPage - 1) * pagePerRequest;
  return raws.slice(skip, skip + limit).map(normalizeEvent);
}
