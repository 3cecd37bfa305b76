import { venueUrl } from '@predgate/core';
import Joi from 'joi';

/** The adapter's section of the deployment manifest. */
export interface BaoziConfig {
  /** Solana JSON-RPC endpoint. The public one rate-limits hard and may refuse getProgramAccounts: production wants a private RPC. */
  rpcUrl: string;
}

export const configSchema = Joi.object<BaoziConfig, true>({
  rpcUrl: venueUrl('https://api.mainnet-beta.solana.com').max(500),
});
