import { definePlugin } from '@predgate/core';
import Joi from 'joi';
import { createOpinionAdapter } from './adapter.js';

export interface OpinionConfig {
  /** Opinion's OpenAPI (catalog, books, price history, account reads). */
  baseUrl: string;
  /** The CLOB host orders are posted to. */
  tradingUrl: string;
  /**
   * The operator's Opinion API key for the shared instance that serves public
   * data (and the catalog sweep): Opinion answers no read without a key. A
   * caller's own `apiKey` credential takes its place.
   */
  apiKey?: string;
  /** The CTF exchange contract orders are signed for (the EIP-712 verifying contract) on BNB Chain. */
  exchangeAddress: string;
  /** Opinion's websocket (the streaming methods); the API key is added as its `apikey` query parameter. */
  wsUrl: string;
  /** Streaming: how often the `HEARTBEAT` keepalive is sent, and the reconnect delays. */
  stream: { pingIntervalMs: number; backoff: { initialMs: number; maxMs: number } };
}

const config = Joi.object<OpinionConfig, true>({
  baseUrl: Joi.string().uri().default('https://openapi.opinion.trade/openapi'),
  tradingUrl: Joi.string().uri().default('https://proxy.opinion.trade:8443/openapi'),
  apiKey: Joi.string().min(1),
  exchangeAddress: Joi.string()
    .pattern(/^0x[0-9a-fA-F]{40}$/)
    .default('0x5F45344126D6488025B0b84A3A8189F2487a7246'),
  wsUrl: Joi.string()
    .uri({ scheme: ['ws', 'wss'] })
    .default('wss://ws.opinion.trade'),
  stream: Joi.object({
    pingIntervalMs: Joi.number().integer().min(10).default(20_000),
    backoff: Joi.object({
      initialMs: Joi.number().integer().min(1).default(500),
      maxMs: Joi.number().integer().min(1).default(30_000),
    }).default(),
  }).default(),
});

export default definePlugin({
  id: 'opinion',
  displayName: 'Opinion',
  secretHeaders: ['apikey'],
  packageJson: new URL('../package.json', import.meta.url),
  config,
  create: createOpinionAdapter,
});
