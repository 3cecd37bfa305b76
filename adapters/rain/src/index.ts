import { definePlugin } from '@predgate/core';
import Joi from 'joi';
import { createRainAdapter } from './adapter.js';

export interface RainConfig {
  /** Rain's REST API (v1): pools and their options. */
  baseUrl: string;
  /** An Arbitrum One JSON-RPC endpoint: option prices and pool totals. */
  rpcUrl: string;
  /** Rain's subgraph on The Graph's gateway: trades and candles. */
  subgraphUrl: string;
  /** The operator's The Graph API key (the gateway refuses queries without one); a caller's own `apiKey` replaces it. */
  subgraphApiKey?: string;
}

const url = (fallback: string) =>
  Joi.string()
    .uri({ scheme: ['https', 'http'] })
    .replace(/\/+$/, '')
    .default(fallback);

const config = Joi.object<RainConfig, true>({
  baseUrl: url('https://prod-api.rain.one'),
  rpcUrl: url('https://arb1.arbitrum.io/rpc'),
  subgraphUrl: url('https://gateway.thegraph.com/api/subgraphs/id/poBixDnF3hyafnLs9i1qkCpFppAAgmmWYgtsXrfYAWQ'),
  subgraphApiKey: Joi.string().max(200),
});

export default definePlugin({
  id: 'rain',
  displayName: 'Rain',
  packageJson: new URL('../package.json', import.meta.url),
  config,
  create: createRainAdapter,
});
