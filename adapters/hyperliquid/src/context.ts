import type { Clock, Credentials } from '@predgate/core';
import type { HyperliquidApi } from './api/client.js';

/** What every call of one adapter instance shares. */
export interface HyperliquidContext {
  api: HyperliquidApi;
  credentials: Credentials | undefined;
  clock: Clock;
  /** Mainnet signs with source "a", testnet with "b". */
  mainnet: boolean;
  /** The last nonce used: nonces must be unique per signer, so concurrent orders in one millisecond take the next. */
  lastNonce: number;
}
