import { definePlugin } from '@predgate/core';
import Joi from 'joi';
import { createProbableAdapter } from './adapter.js';
import { defaultExchange } from './auth/contracts.js';

export interface ProbableConfig {
  /** Market metadata API: events, markets, search. */
  marketsUrl: string;
  /** Order-book API: books, prices, history, positions, and the private calls. */
  orderbookUrl: string;
  /** The CTF exchange orders are signed for on BNB Chain (the EIP-712 verifying contract). */
  exchangeAddress: string;
  /** The fee rate signed into every order, in basis points. */
  feeRateBps: number;
  /** Public websocket root of the streaming methods (the connection goes to `{wsUrl}/ws?chainId=56`). */
  wsUrl: string;
  /** Streaming: keepalive ping interval and reconnect delays. */
  stream: { pingIntervalMs: number; backoff: { initialMs: number; maxMs: number } };
}

const url = Joi.string()
  .uri({ scheme: ['https', 'http'] })
  .replace(/\/+$/, '');

const config = Joi.object<ProbableConfig, true>({
  marketsUrl: url.default('https://market-api.probable.markets/public/api/v1'),
  orderbookUrl: url.default('https://api.probable.markets/public/api/v1'),
  exchangeAddress: Joi.string()
    .pattern(/^0x[0-9a-fA-F]{40}$/)
    .default(defaultExchange),
  // Clients that traded live sign 175 (1.75%) and report lower rates refused; the SDK's default is 0.
  feeRateBps: Joi.number().integer().min(0).max(10_000).default(175),
  wsUrl: Joi.string()
    .uri({ scheme: ['ws', 'wss'] })
    .replace(/\/+$/, '')
    .default('wss://ws.probable.markets/public/api/v1'),
  stream: Joi.object({
    pingIntervalMs: Joi.number().integer().min(10).default(20_000),
    backoff: Joi.object({
      initialMs: Joi.number().integer().min(1).default(500),
      maxMs: Joi.number().integer().min(1).default(30_000),
    }).default(),
  }).default(),
});

export default definePlugin({
  id: 'probable',
  displayName: 'Probable',
  secretHeaders: ['prob_signature', 'prob_api_key', 'prob_passphrase'],
  packageJson: new URL('../package.json', import.meta.url),
  config,
  create: createProbableAdapter,
});
