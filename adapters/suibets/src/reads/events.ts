import { eventListPredicate, inCatalogOrder } from '@predgate/core';
import type { Event, EventFetchParams } from '@predgate/core';
import type { SuibetsContext } from '../context.js';
import { groupIntoEvents } from '../normalize/markets.js';
import { listOffers, lookupStatus, pageOf } from './offers.js';

/** Offers grouped into events by fixture. */
export async function fetchEvents(ctx: SuibetsContext, params: EventFetchParams = {}): Promise<Event[]> {
  const raws = await listOffers(ctx, params, lookupStatus(params));
  const keep = eventListPredicate(params);
  const events = groupIntoEvents(raws)
    .filter((event) => (params.eventId === undefined || event.id === params.eventId) && (params.slug === undefined || event.slug === params.slug))
    .filter((event) => !keep || keep(event));
  return pageOf(params.sort === undefined || params.sort === 'volume' ? inCatalogOrder(events, (event) => event.id) : events, params);
}
