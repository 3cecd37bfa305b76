import { mapVenueFailure, venueMessageOf } from '@predgate/core';
import type { VenueFailure } from '@predgate/core';
import { tokenMember } from './venue.js';

/** A missing or bad token is an authentication error, a forbidden post a permission one; the rest keep their HTTP status's meaning. */
export function mapError(failure: VenueFailure) {
  const message = venueMessageOf(failure.body);
  if (failure.status === 401 || (failure.status === 403 && !/permission/i.test(message ?? ''))) {
    return mapVenueFailure(failure, {
      code: 'AUTHENTICATION_ERROR',
      message: `metaculus needs a valid API token (credential member "apiToken"): ${message ?? 'refused'}`,
      detail: { required: tokenMember },
    });
  }
  if (failure.status === 403) return mapVenueFailure(failure, { code: 'PERMISSION_DENIED' });
  return undefined;
}
