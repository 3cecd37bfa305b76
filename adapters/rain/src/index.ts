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
  /** Socket.IO root of the live pool events (Rain's REST host); `watchTrades` reads them. */
  ws: string;
  /** Streaming: websocket keepalive pings and reconnect delays. */
  stream: { pingIntervalMs: number; backoff: { initialMs: number; maxMs: number } };
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
  ws: Joi.string()
    .uri({ scheme: ['wss', 'ws'] })
    .replace(/\/+$/, '')
    .default('wss://prod-api.rain.one'),
  stream: Joi.object({
    pingIntervalMs: Joi.number().integer().min(10).default(20_000),
    backoff: Joi.object({
      initialMs: Joi.number().integer().min(1).default(500),
      maxMs: Joi.number().integer().min(1).default(30_000),
    }).default(),
  }).default(),
});

export default definePlugin({
  id: 'rain',
  displayName: 'Rain',
  secretHeaders: ['authorization'],
  packageJson: new URL('../package.json', import.meta.url),
  config,
  create: createRainAdapter,
});
