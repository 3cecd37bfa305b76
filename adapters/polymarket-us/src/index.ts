import { definePlugin } from '@predgate/core';
import Joi from 'joi';
import { createPolymarketUsAdapter } from './adapter.js';

export interface PolymarketUsConfig {
  /** Public reads: events, markets, books. */
  gatewayUrl: string;
  /** Signed calls: balances, positions, orders. */
  apiUrl: string;
  /** The markets websocket of the streaming methods. */
  wsUrl: string;
  /**
   * Streaming: keepalive and reconnect delays, and the operator's key for the
   * websocket handshake (signed even for public data) when a subscription
   * brings no credentials of its own.
   */
  stream: { pingIntervalMs: number; backoff: { initialMs: number; maxMs: number }; credentials?: { apiKey: string; privateKey: string } };
}

const url = Joi.string()
  .uri({ scheme: ['https', 'http'] })
  .replace(/\/+$/, '');

const config = Joi.object<PolymarketUsConfig, true>({
  gatewayUrl: url.default('https://gateway.polymarket.us'),
  apiUrl: url.default('https://api.polymarket.us'),
  wsUrl: Joi.string()
    .uri({ scheme: ['wss', 'ws'] })
    .default('wss://api.polymarket.us/v1/ws/markets'),
  stream: Joi.object({
    pingIntervalMs: Joi.number().integer().min(10).default(20_000),
    backoff: Joi.object({
      initialMs: Joi.number().integer().min(1).default(500),
      maxMs: Joi.number().integer().min(1).default(30_000),
    }).default(),
    credentials: Joi.object({ apiKey: Joi.string().required(), privateKey: Joi.string().required() }),
  }).default(),
});

export default definePlugin({
  id: 'polymarket_us',
  displayName: 'Polymarket US',
  secretHeaders: ['x-pm-access-key', 'x-pm-signature'],
  packageJson: new URL('../package.json', import.meta.url),
  config,
  create: createPolymarketUsAdapter,
});

export { PolymarketUsSigner } from './auth/signer.js';
