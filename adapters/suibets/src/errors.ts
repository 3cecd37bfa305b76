import { mapVenueFailure, venueMessageOf } from '@predgate/core';
import type { VenueFailure } from '@predgate/core';
import { venueId } from './venue.js';

/** The venue's error body is `{"message": "..."}`; its 404 is about the offer in the path. */
export function mapError(failure: VenueFailure) {
  if (failure.status === 404 && failure.path.startsWith('/api/p2p/offers/')) return mapVenueFailure(failure, { code: 'MARKET_NOT_FOUND' });
  if (failure.status === 400)
    return mapVenueFailure(failure, { code: 'VALIDATION_ERROR', message: `${venueId}: ${venueMessageOf(failure.body) ?? 'bad request'}` });
  return undefined;
}
