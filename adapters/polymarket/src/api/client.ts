import type { AdapterContext, QueryValue, VenueHttpClient } from '@predgate/core';
import type { PolymarketConfig } from '../config.js';
import { mapError } from '../errors.js';
import { venueId } from '../venue.js';

export function createVenueClient(context: AdapterContext, config: PolymarketConfig): VenueHttpClient {
  return context.http({
    venue: venueId,
    rateLimit: config.rateLimit,
    headers: { 'user-agent': config.userAgent },
    mapError: mapError,
  });
}

export type Query = Record<string, QueryValue>;
