import { mapVenueFailure, venueMessageOf } from '@predgate/core';
import type { VenueFailure } from '@predgate/core';
import { venueId } from './venue.js';

/**
 * Rain's REST errors carry `{statusCode, message}`; Cloudflare's challenge page
 * is an outage, not a refusal; an unknown pool is MARKET_NOT_FOUND. Subgraph and
 * RPC failures say which back end failed.
 */
export function mapError(failure: VenueFailure, origins: { subgraphOrigin: string; rpcOrigin: string }) {
  const venueMessage = venueMessageOf(failure.body);
  const service =
    failure.origin === origins.subgraphOrigin ? 'Rain subgraph (The Graph gateway)' : failure.origin === origins.rpcOrigin ? 'Arbitrum RPC' : undefined;
  const html = typeof failure.body === 'string' && /<html|just a moment|cf_chl|challenge-platform/i.test(failure.body);
  const code =
    failure.status === 404 && /^\/pools\/pool\//.test(failure.path) && service === undefined
      ? 'MARKET_NOT_FOUND'
      : failure.status === 403 && html
        ? 'EXCHANGE_NOT_AVAILABLE'
        : undefined;
  const shown = html ? undefined : venueMessage;
  const message = service
    ? `${venueId}: the ${service} answered HTTP ${failure.status}${shown ? `: ${shown}` : ''}`
    : shown
      ? `${venueId}: ${shown}`
      : html
        ? `${venueId}: the REST API answered HTTP ${failure.status} with a Cloudflare challenge page`
        : undefined;
  return mapVenueFailure(failure, {
    ...(code ? { code } : {}),
    ...(message ? { message } : {}),
    detail: { ...(service ? { service } : {}), ...(html ? { venueMessage: 'Cloudflare challenge page' } : {}) },
  });
}
