import type { VenueProfile } from '@predgate/core';
import { rateLimit } from './api/client.js';
import type { PolymarketHosts } from './config.js';
import { displayName } from './venue.js';

/**
 * What `describe` reports. Every authenticated call needs the wallet key; the
 * API key triple is derived from it when absent, and `funderAddress` names the
 * proxy wallet of signature types 1-3.
 */
export function profileOf(hosts: PolymarketHosts): VenueProfile {
  return {
    displayName,
    hosts: { ...hosts },
    rateLimit: { requests: rateLimit.requests, intervalMs: rateLimit.intervalMs },
    credentials: {
      required: ['privateKey'],
      optional: ['apiKey', 'apiSecret', 'passphrase', 'signatureType', 'funderAddress'],
    },
  };
}
