import { missingCredentials } from '@predgate/core';
import type { Clock, Credentials } from '@predgate/core';
import { credentialMembers, venueId } from '../venue.js';
import { GeminiSigner } from './signer.js';

/** The caller's signer, made on first use; calls without the key and secret are refused by name. */
export function signerOf(credentials: Credentials | undefined, clock: Clock) {
  let signer: GeminiSigner | undefined;
  return () => {
    const { apiKey, apiSecret } = credentials ?? {};
    if (!apiKey || !apiSecret) throw missingCredentials(venueId, credentialMembers);
    signer ??= new GeminiSigner(apiKey, apiSecret, () => clock.now());
    return signer;
  };
}
