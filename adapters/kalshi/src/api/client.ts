import type { Clock, Credentials, HttpClientFactory, HttpMethod, QueryValue, VenueHttpClient } from '@predgate/core';
import { createSigner, credentialMembers, signedPath } from '../auth/signer.js';
import type { KalshiSigner } from '../auth/signer.js';
import type { KalshiConfig } from '../config.js';
import { mapError } from '../errors.js';
import type { KalshiVenue } from '../config.js';

export type Query = Record<string, QueryValue>;

export interface KalshiApiOptions {
  venue: KalshiVenue;
  config: KalshiConfig;
  http: HttpClientFactory;
  clock: Clock;
  credentials?: Credentials;
}

/**
 * The venue's REST API: URLs under the configured root, the unified error
 * mapping, and request signing for the calls that need (or accept) it.
 */
export class KalshiApi {
  readonly venue: KalshiVenue;
  private readonly client: VenueHttpClient;
  private readonly root: string;
  private readonly clock: Clock;
  private readonly credentials: Credentials | undefined;
  private signer: KalshiSigner | undefined;

  constructor(options: KalshiApiOptions) {
    this.venue = options.venue;
    this.root = options.config.hosts.rest.replace(/\/+$/, '');
    this.clock = options.clock;
    this.credentials = options.credentials;
    this.client = options.http({
      venue: options.venue.id,
      rateLimit: options.config.rateLimit,
      mapError: mapError,
      // A host that stops resolving must not take the venue down: pmxt's Kalshi ingest was down for days when one did.
      fallbackOrigins: { [new URL(this.root).origin]: options.config.hosts.restFallbacks },
    });
  }

  /** A public read. */
  get<T>(path: string, query?: Query): Promise<T> {
    return this.client.json<T>({ url: this.url(path), query });
  }

  /**
   * A public read Kalshi documents as authenticated (the order books): signed
   * when the caller brought credentials, plain otherwise, as the venue answers both.
   */
  getSignedIfPossible<T>(path: string, query?: Query): Promise<T> {
    return this.hasCredentials() ? this.account<T>('GET', path, { query }) : this.get<T>(path, query);
  }

  /**
   * A call on the caller's account. Without credentials it fails with
   * AUTHENTICATION_ERROR before anything is sent.
   */
  account<T>(method: HttpMethod, path: string, options: { query?: Query; body?: unknown } = {}): Promise<T> {
    const url = this.url(path);
    const headers = this.sign(method, url);
    return this.client.json<T>({ method, url, query: options.query, body: options.body, headers });
  }

  /** Fails like `account` would, for methods that must check credentials before any other work. */
  requireCredentials(): void {
    this.signerFor();
  }

  private hasCredentials(): boolean {
    return credentialMembers.every((member) => Boolean(this.credentials?.[member]));
  }

  private sign(method: HttpMethod, url: string): Record<string, string> {
    return this.signerFor().headers(method, signedPath(url), Math.floor(this.clock.now()));
  }

  private signerFor(): KalshiSigner {
    this.signer ??= createSigner(this.credentials, this.venue.id);
    return this.signer;
  }

  private url(path: string): string {
    return `${this.root}${path}`;
  }
}

/** A path segment from a caller's value, so a ticker can never change the path's shape. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}
