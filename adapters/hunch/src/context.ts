import type { Clock, Credentials } from '@predgate/core';
import type { HunchApi } from './api/client.js';

/** What every call of one adapter instance shares: reads and account calls take it first. */
export interface HunchContext {
  api: HunchApi;
  credentials: Credentials | undefined;
  clock: Clock;
}
