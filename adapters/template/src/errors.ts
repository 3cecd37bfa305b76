import { mapVenueFailure } from '@predgate/core';
import type { ErrorCode, VenueFailure } from '@predgate/core';

/**
 * The venue's error codes (`{"error": {"code": "...", "message": "..."}}`)
 * and the unified code each means, as data: a code not listed keeps the
 * meaning of its HTTP status.
 */
const venueCodes: Record<string, ErrorCode> = {
  unknown_outcome: 'OUTCOME_NOT_FOUND',
};

/** Reads the venue's error bodies into unified codes; handed to `context.http(...)`. */
export function mapError(failure: VenueFailure) {
  const code = (failure.body as { error?: { code?: string } } | null)?.error?.code;
  const unified = code === undefined ? undefined : venueCodes[code];
  return unified ? mapVenueFailure(failure, { code: unified }) : mapVenueFailure(failure);
}
