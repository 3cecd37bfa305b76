import { PredgateError, checkPayload } from '@predgate/core';
import type { Clock, Credentials, VenueHttpClient } from '@predgate/core';
import Joi from 'joi';
import { venueId } from '../venue.js';
import { chainId } from './contracts.js';
import { signatureTypeOf, walletOf } from './credentials.js';
import { l1Headers, l2Headers } from './headers.js';
import type { ApiCredentials } from './headers.js';

const apiKeyAnswer = Joi.object({
  apiKey: Joi.string().min(1).required(),
  secret: Joi.string().min(1).required(),
  passphrase: Joi.string().min(1).required(),
}).required();

/**
 * Signs private calls for one set of credentials. The API key triple comes
 * from the credentials (`apiKey`, `apiSecret`, `passphrase`), or is obtained
 * once with the wallet key (L1): `GET /auth/api-key/56` reads the account's
 * key, and an account without one gets one from `POST /auth/api-key/56`. The
 * gateway keeps one adapter instance per set of credentials, so it is kept.
 */
export class ProbableAuthenticator {
  private obtained: Promise<ApiCredentials> | undefined;

  constructor(
    private readonly http: VenueHttpClient,
    private readonly host: string,
    private readonly credentials: Credentials | undefined,
    private readonly clock: Clock,
  ) {}

  /** L2 headers for one request: `url` exactly as sent (path and query are signed), `body` byte for byte. */
  async headers(method: string, url: string, body?: string): Promise<Record<string, string>> {
    const wallet = walletOf(this.credentials);
    const eoa = signatureTypeOf(this.credentials) === 0;
    const apiCredentials = await this.apiCredentials();
    const { pathname, search } = new URL(url);
    return l2Headers(apiCredentials, wallet.address, {
      timestamp: this.seconds(),
      method,
      requestPath: `${pathname}${search}`,
      ...(body === undefined ? {} : { body }),
      eoa,
    });
  }

  private apiCredentials(): Promise<ApiCredentials> {
    const { apiKey, apiSecret, passphrase } = this.credentials ?? {};
    if (apiKey && apiSecret && passphrase) return Promise.resolve({ apiKey, secret: apiSecret, passphrase });
    if (apiKey || apiSecret || passphrase) {
      // Part of a triple is a mistake worth naming, not a reason to log in with the key instead.
      const missing = (['apiKey', 'apiSecret', 'passphrase'] as const).filter((member) => !this.credentials?.[member]);
      throw new PredgateError('AUTHENTICATION_ERROR', `${venueId}: give all of apiKey, apiSecret and passphrase, or none (to log in with privateKey)`, {
        exchange: venueId,
        detail: { required: ['apiKey', 'apiSecret', 'passphrase'], missing },
      });
    }
    this.obtained ??= this.obtain().catch((error: unknown) => {
      // A failed login is not kept: the next call tries again.
      this.obtained = undefined;
      throw error;
    });
    return this.obtained;
  }

  private async obtain(): Promise<ApiCredentials> {
    const wallet = walletOf(this.credentials);
    const url = `${this.host}/auth/api-key/${chainId}`;
    const source = { venue: this.http.venue, endpoint: 'GET /auth/api-key/{chainId}' };
    let answer: unknown;
    try {
      answer = await this.http.json({ url, headers: await l1Headers(wallet, this.seconds()) });
    } catch (error) {
      // An account without a key is told so (404 or 400); an outage is not a reason to create one.
      if (!(error instanceof PredgateError) || error.retryable || error.code === 'AUTHENTICATION_ERROR') throw error;
      answer = await this.http.json({ method: 'POST', url, headers: await l1Headers(wallet, this.seconds()), idempotent: false });
      source.endpoint = 'POST /auth/api-key/{chainId}';
    }
    const triple = checkPayload<{ apiKey: string; secret: string; passphrase: string }>(apiKeyAnswer, answer, source);
    return { apiKey: triple.apiKey, secret: triple.secret, passphrase: triple.passphrase };
  }

  private seconds(): number {
    return Math.floor(this.clock.now() / 1000);
  }
}
