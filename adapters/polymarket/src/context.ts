import type { Clock, Credentials } from '@predgate/core';
import type { ClobPrivateApi } from './api/clob-private.js';
import type { ClobPublicApi } from './api/clob-public.js';
import type { DataApi } from './api/data.js';
import type { GammaApi } from './api/gamma.js';
import type { ClobAuthenticator } from './auth/api-keys.js';
import type { MarketLookup } from './reads/lookup.js';

/** Makes order salts: random in production, fixed in tests. The venue reads the salt as a JSON integer. */
export type SaltSource = () => number;

/** What every read and account call of one adapter instance shares. */
export interface PolymarketContext {
  gamma: GammaApi;
  clob: ClobPublicApi;
  clobPrivate: ClobPrivateApi;
  data: DataApi;
  auth: ClobAuthenticator;
  lookup: MarketLookup;
  credentials: Credentials | undefined;
  clock: Clock;
  /** Gamma listing page size when a call gives no `limit`. */
  pageSize: number;
  salt: SaltSource;
}
