import { isPredgateError } from '@predgate/core';
import type { AdapterContext, QueryValue, VenueHttpClient } from '@predgate/core';
import type { PolymarketConfig } from '../config.js';
import { mapPolymarketFailure } from '../errors.js';
import { venueId } from '../venue.js';

export function createVenueClient(context: AdapterContext, config: PolymarketConfig): VenueHttpClient {
  return context.http({
    venue: venueId,
    rateLimit: config.rateLimit,
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
