import { definePlugin } from '@predgate/core';
import Joi from 'joi';
import { createHyperliquidAdapter } from './adapter.js';

export interface HyperliquidConfig {
  /** REST root holding `/info` and `/exchange`. */
  baseUrl: string;
  /** Testnet signs actions with source "b"; point `baseUrl` at `https://api.hyperliquid-testnet.xyz` with it. */
  testnet: boolean;
  /** Websocket of the streaming methods; defaults to mainnet's, or testnet's with `testnet`. */
  wsUrl: string;
  /** Streaming: keepalive (the venue drops a connection silent for a minute) and reconnect delays. */
  stream: { pingIntervalMs: number; backoff: { initialMs: number; maxMs: number } };
}

export const mainnetWs = 'wss://api.hyperliquid.xyz/ws';
export const testnetWs = 'wss://api.hyperliquid-testnet.xyz/ws';

const config = Joi.object<HyperliquidConfig, true>({
  baseUrl: Joi.string()
    .uri({ scheme: ['https', 'http'] })
    .replace(/\/+$/, '')
    .default('https://api.hyperliquid.xyz'),
  testnet: Joi.boolean().default(false),
  wsUrl: Joi.string()
    .uri({ scheme: ['ws', 'wss'] })
    .default((parent: { testnet?: boolean }) => (parent.testnet ? testnetWs : mainnetWs)),
  stream: Joi.object({
    pingIntervalMs: Joi.number().integer().min(10).default(30_000),
    backoff: Joi.object({
      initialMs: Joi.number().integer().min(1).default(500),
      maxMs: Joi.number().integer().min(1).default(30_000),
    }).default(),
  }).default(),
});

export default definePlugin({
  id: 'hyperliquid',
  displayName: 'Hyperliquid',
  packageJson: new URL('../package.json', import.meta.url),
  config,
  create: createHyperliquidAdapter,
});
