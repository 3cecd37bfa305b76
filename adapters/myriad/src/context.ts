import type { AdapterContext } from '@predgate/core';
import type { MyriadApi } from './api/client.js';

/** What every call of one adapter instance shares: reads and account calls take it first. */
export interface MyriadContext extends Pick<AdapterContext, 'clock' | 'credentials'> {
  api: MyriadApi;
}
