import { offsetWindow, toNumber } from '@predgate/core';
import type { Event, EventFetchParams, Market, MarketFetchParams, StatusFilter } from '@predgate/core';
import { maxOffers } from '../api/client.js';
import type { RawOffer } from '../api/schemas.js';
import { venueId } from '../venue.js';
import type { SuibetsContext } from '../context.js';
import { normalizeOffer } from '../normalize/markets.js';

const defaultPageSize = 100;

/** Lookups by key find settled and cancelled offers too, unless the caller narrows the status. */
export function lookupStatus(params: EventFetchParams | MarketFetchParams): StatusFilter {
  const byKey = params.eventId !== undefined || params.slug !== undefined || ('marketId' in params && params.marketId !== undefined);
  return params.status ?? (byKey ? 'all' : 'active');
}

/**
 * Offers of the wanted status, sorted as asked. The venue's default listing
 * is exactly the active offers; any other status reads every offer and keeps
 * the ones that match. Fixture and event filters go to the venue.
 */
export async function listOffers(ctx: SuibetsContext, params: EventFetchParams | MarketFetchParams, status: StatusFilter): Promise<RawOffer[]> {
  // Series do not exist on this venue: no offer belongs to one.
  if (params.series !== undefined) return [];
  const raws = await ctx.api.offers({
    ...(params.eventId === undefined ? {} : { eventId: params.eventId }),
    ...(status === 'active' ? {} : { status: 'all' }),
    limit: maxOffers,
  });
  const wanted = status === 'all' ? raws : raws.filter((raw) => (normalizeOffer(raw).status === 'active') === (status === 'active'));
  return sortOffers(wanted, params.sort);
}

/**
 * `liquidity` (open taker stake) and `newest` sort the offers before they are
 * grouped; `volume` is the catalog's order (the venue publishes no 24-hour
 * volume, so ids decide), applied after.
 */
function sortOffers(raws: RawOffer[], sort: EventFetchParams['sort']): RawOffer[] {
  if (sort === 'liquidity') {
    const remaining = (raw: RawOffer) => (toNumber(raw.takerStake) ?? 0) - (toNumber(raw.filledStake) ?? 0);
    return [...raws].sort((a, b) => remaining(b) - remaining(a));
  }
  if (sort === 'newest') return [...raws].sort((a, b) => String(b.createdAt ?? '').localeCompare(String(a.createdAt ?? '')));
  return raws;
}

export function pageOf<T extends Event | Market>(items: T[], params: { limit?: number; offset?: number; cursor?: string }): T[] {
  const { start, end } = offsetWindow(items.length, params, defaultPageSize, venueId);
  return items.slice(start, end);
}
