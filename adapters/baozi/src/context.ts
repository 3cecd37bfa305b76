import type { AdapterContext, Credentials } from '@predgate/core';
import type { SolanaRpc } from './api/client.js';
import type { RawMarket } from './normalize/markets.js';

/** What every call of one adapter instance shares. */
export interface BaoziContext {
  rpc: SolanaRpc;
  credentials: Credentials | undefined;
  logger: AdapterContext['logger'];
  now: () => number;
  /** The last list of every market, shared by the list calls for a while (getProgramAccounts is heavy). */
  listCache: { at: number; markets: Promise<RawMarket[]> } | undefined;
}
