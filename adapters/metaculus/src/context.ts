import type { MetaculusApi } from './api/client.js';

/** What every call of one adapter instance shares: reads take it first. */
export interface MetaculusContext {
  api: MetaculusApi;
}
