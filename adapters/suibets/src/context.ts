import type { SuibetsApi } from './api/client.js';

/** What every call of one adapter instance shares: reads and account calls take it first. */
export interface SuibetsContext {
  api: SuibetsApi;
  /** The caller's wallet, read when fetchPositions names no address. */
  walletAddress: string | undefined;
}
