import { PredgateError, missingCredentials } from '@predgate/core';
import type { Clock, Credentials, HttpMethod } from '@predgate/core';
import { credentialMembers, venueId } from '../venue.js';
import { PolymarketUsSigner } from './signer.js';

/** Signs each account request with the caller's key, made once on first use; missing or malformed credentials are refused by name. */
export function requestHeaders(credentials: Credentials | undefined, clock: Clock) {
  let signer: PolymarketUsSigner | undefined;
  return (method: HttpMethod, path: string) => {
    const { apiKey, privateKey, apiSecret } = credentials ?? {};
    const secret = privateKey ?? apiSecret;
    if (!apiKey || !secret) throw missingCredentials(venueId, credentialMembers);
    try {
      signer ??= new PolymarketUsSigner(apiKey, secret);
    } catch {
      // The secret's value stays out of the message.
      throw new PredgateError('AUTHENTICATION_ERROR', `${venueId}: privateKey must be the base64 Ed25519 secret key shown when the API key was created`, {
        detail: { member: 'privateKey' },
      });
    }
    return signer.headers(method, path, Math.floor(clock.now()));
  };
}
