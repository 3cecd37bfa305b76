import type { Clock, Credentials } from '@predgate/core';
import type { Address } from 'viem';
import type { ProbableApi } from './api/client.js';
import type { ProbablePrivateApi } from './api/private.js';

/** What every call of one adapter instance shares: reads and account calls take it first. */
export interface ProbableContext {
  api: ProbableApi;
  private: ProbablePrivateApi;
  credentials: Credentials | undefined;
  clock: Clock;
  exchange: Address;
  feeRateBps: number;
  /** Order salts: random in production. */
  salt: () => number;
}
