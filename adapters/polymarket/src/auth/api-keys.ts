import { PredgateError, requireCredentials } from '@predgate/core';
import type { Clock, Credentials, VenueHttpClient } from '@predgate/core';
import type { ApiKeyAnswer } from '../api/types.js';
import { venueId } from '../venue.js';
import { walletOf } from './credentials.js';
import { l1Headers } from './l1-headers.js';
import { l2Headers } from './l2-headers.js';
import type { ApiCredentials } from './l2-headers.js';

/**
 * Signs authenticated CLOB requests for one set of credentials. The API key
 * triple comes from the credentials, or is derived from the wallet key once
 * (L1-signed `GET /auth/derive-api-key`, else `POST /auth/api-key`) and kept:
 * the gateway keeps one adapter instance per set of credentials.
 */
export class ClobAuthenticator {
  private derived: Promise<ApiCredentials> | undefined;

  constructor(
    private readonly http: VenueHttpClient,
    private readonly clobHost: string,
    private readonly credentials: Credentials | undefined,
    private readonly clock: Clock,
  ) {}

  /** L2 headers for one request; `path` without its query string, `body` exactly as sent. */
  async headers(method: string, path: string, body?: string): Promise<Record<string, string>> {
    const address = this.address();
    const apiCredentials = await this.apiCredentials();
    return l2Headers(apiCredentials, address, { timestamp: this.seconds(), method, path, ...(body === undefined ? {} : { body }) });
  }

  /** The API key, which the CLOB wants as an order's `owner`. */
  async apiKey(): Promise<string> {
    this.address();
    return (await this.apiCredentials()).apiKey;
  }

  /**
   * POLY_ADDRESS: the signing key's address. With an API key triple and no key,
   * the funder address stands in, as pmxt does.
   */
  private address(): string {
    if (this.credentials?.privateKey || !this.hasTriple()) return walletOf(this.credentials).address;
    return requireCredentials(this.credentials, ['funderAddress'], venueId).funderAddress as string;
  }

  private hasTriple(): boolean {
    return Boolean(this.credentials?.apiKey && this.credentials.apiSecret && this.credentials.passphrase);
  }

  private apiCredentials(): Promise<ApiCredentials> {
    if (this.hasTriple()) {
      const { apiKey, apiSecret, passphrase } = this.credentials as Required<Pick<Credentials, 'apiKey' | 'apiSecret' | 'passphrase'>>;
      return Promise.resolve({ apiKey, secret: apiSecret, passphrase });
    }
    this.derived ??= this.derive().catch((error: unknown) => {
      // A failed derivation is not kept: the next call tries again.
      this.derived = undefined;
      throw error;
    });
    return this.derived;
  }

  /** Derivation is deterministic for a key and nonce; an account that never had a key gets one created. */
  private async derive(): Promise<ApiCredentials> {
    const wallet = walletOf(this.credentials);
    const url = (path: string) => `${this.clobHost}${path}`;
    let answer: ApiKeyAnswer;
    try {
      answer = await this.http.json<ApiKeyAnswer>({ url: url('/auth/derive-api-key'), headers: await l1Headers(wallet, this.seconds()) });
    } catch (error) {
      if (error instanceof PredgateError && error.retryable) throw error;
      answer = await this.http.json<ApiKeyAnswer>({
        method: 'POST',
        url: url('/auth/api-key'),
        headers: await l1Headers(wallet, this.seconds()),
      });
    }
    if (!answer.apiKey || !answer.secret || !answer.passphrase) {
      throw new PredgateError('AUTHENTICATION_ERROR', `${venueId}: the CLOB issued no API key for this wallet`, { exchange: venueId });
    }
    return { apiKey: answer.apiKey, secret: answer.secret, passphrase: answer.passphrase };
  }

  private seconds(): number {
    return Math.floor(this.clock.now() / 1000);
  }
}
