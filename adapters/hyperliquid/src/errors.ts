import { PredgateError, mapVenueFailure } from '@predgate/core';
import type { ErrorCode, VenueFailure } from '@predgate/core';
import { minOrderValue, venueId } from './venue.js';

/**
 * The info endpoint answers a failure as plain text (a malformed query is a
 * 422 "Failed to deserialize…"): its HTTP status carries the meaning.
 */
export function mapError(failure: VenueFailure) {
  return mapVenueFailure(failure);
}

/** The exchange endpoint's refusals (`{"status":"err"}` or a status `{"error": ...}`, with HTTP 200), by their words: first match wins. */
const rejections: Array<[RegExp, ErrorCode]> = [
  [/does not exist|not authorized|must deposit|signature/i, 'AUTHENTICATION_ERROR'],
  [/minimum value/i, 'ORDER_SIZE_TOO_SMALL'],
  [/insufficient|not enough/i, 'INSUFFICIENT_FUNDS'],
];

/** A refused action or order, the venue's words kept in `detail.venueMessage`. */
export function rejection(message: string): PredgateError {
  const code = rejections.find(([pattern]) => pattern.test(message))?.[1] ?? 'INVALID_ORDER';
  return new PredgateError(code, `${venueId}: ${message.slice(0, 300)}`, {
    detail: { venueMessage: message.slice(0, 300), ...(code === 'ORDER_SIZE_TOO_SMALL' ? { min: minOrderValue } : {}) },
  });
}
