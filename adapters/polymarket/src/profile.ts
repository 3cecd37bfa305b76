import type { VenueProfile } from '@predgate/core';
import type { PolymarketConfig } from './config.js';
import { displayName } from './venue.js';

/**
 * What `describe` reports. Every authenticated call needs the wallet key; the
 * API key triple is derived from it when absent, and `funderAddress` names the
 * proxy wallet of signature types 1-3.
 */
export function profileOf({ hosts, rateLimit }: Pick<PolymarketConfig, 'hosts' | 'rateLimit'>): VenueProfile {
  return {
    displayName,
    hosts: { ...hosts },
    rateLimit: { ...rateLimit },
    credentials: {
      required: ['privateKey'],
      optional: ['apiKey', 'apiSecret', 'passphrase', 'signatureType', 'funderAddress'],
    },
  };
}
