import { isPredgateError } from '@predgate/core';
import type { AdapterContext, QueryValue, RateLimitOptions, VenueHttpClient } from '@predgate/core';
import type { PolymarketConfig } from '../config.js';
import { mapPolymarketFailure } from '../errors.js';
import { venueId } from '../venue.js';

/**
 * One budget for all three hosts (the factory keeps one client per venue):
 * 150 requests per 10 s keeps under the tightest limit the adapter meets,
 * Data API `/positions` (150 / 10 s); Gamma and the CLOB allow far more.
 */
export const rateLimit: RateLimitOptions = { requests: 150, intervalMs: 10_000 };

export function createVenueClient(context: AdapterContext, config: PolymarketConfig): VenueHttpClient {
  return context.http({
    venue: venueId,
    rateLimit,
    headers: { 'user-agent': config.userAgent },
    mapError: mapPolymarketFailure,
  });
}

export type Query = Record<string, QueryValue>;

/** The answer, or undefined when the venue says the thing does not exist (a 404 on a lookup). */
export async function unlessMissing<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    if (isPredgateError(error) && error.status === 404) return undefined;
    throw error;
  }
}
