import { mapVenueFailure, venueMessageOf } from '@predgate/core';
import type { VenueFailure } from '@predgate/core';
import { venueId } from './venue.js';

/** Myriad's errors are NestJS bodies: `message` says what went wrong, `error` is only the status text. */
export function mapError(failure: VenueFailure) {
  const { message } = (typeof failure.body === 'object' && failure.body !== null ? failure.body : {}) as { message?: unknown };
  const venueMessage = typeof message === 'string' ? message : Array.isArray(message) ? message.join('; ') : venueMessageOf(failure.body);
  const detail: Record<string, unknown> = venueMessage ? { venueMessage } : {};
  // The window is announced in X-RateLimit-Reset: read as seconds to wait where it is small enough to be that.
  const reset = Number(failure.headers['x-ratelimit-reset']);
  if (failure.status === 429 && failure.headers['retry-after'] === undefined && Number.isInteger(reset) && reset >= 0 && reset <= 3600)
    detail.retryAfter = reset;
  const code =
    failure.status !== 404 || !failure.path.startsWith('/markets/')
      ? undefined
      : /^\/markets\/[^/]+$/.test(failure.path)
        ? 'MARKET_NOT_FOUND'
        : 'OUTCOME_NOT_FOUND';
  return mapVenueFailure(failure, { ...(code ? { code } : {}), ...(venueMessage ? { message: `${venueId}: ${venueMessage}` } : {}), detail });
}
