import type { MetaculusApi } from './api/client.js';

export const venueId = 'metaculus';

/** The credential member every call needs. */
export const tokenMember = ['apiToken'];

/** What every call of one adapter instance shares: reads take it first. */
export interface MetaculusContext {
  api: MetaculusApi;
}
