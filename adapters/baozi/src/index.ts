import { definePlugin } from '@predgate/core';
import Joi from 'joi';
import { createBaoziAdapter } from './adapter.js';

export interface BaoziConfig {
  /** Solana JSON-RPC endpoint. The public one rate-limits hard and may refuse getProgramAccounts: production wants a private RPC. */
  rpcUrl: string;
}

const config = Joi.object<BaoziConfig, true>({
  rpcUrl: Joi.string()
    .uri({ scheme: ['https', 'http'] })
    .max(500)
    .default('https://api.mainnet-beta.solana.com'),
});

export default definePlugin({
  id: 'baozi',
  displayName: 'Baozi',
  packageJson: new URL('../package.json', import.meta.url),
  config,
  create: createBaoziAdapter,
});
