import { definePlugin } from '@predgate/core';
import Joi from 'joi';
import { createLimitlessAdapter } from './adapter.js';

export interface LimitlessConfig {
  /** REST root (no version prefix). */
  baseUrl: string;
  /** Socket.IO root of the streaming methods (the `/markets` namespace). */
  ws: string;
  /** Streaming: websocket keepalive pings and reconnect delays. */
  stream: { pingIntervalMs: number; backoff: { initialMs: number; maxMs: number } };
}

const config = Joi.object<LimitlessConfig, true>({
  baseUrl: Joi.string()
    .uri({ scheme: ['https', 'http'] })
    .replace(/\/+$/, '')
    .default('https://api.limitless.exchange'),
  ws: Joi.string()
    .uri({ scheme: ['wss', 'ws'] })
    .replace(/\/+$/, '')
    .default('wss://ws.limitless.exchange'),
  stream: Joi.object({
    pingIntervalMs: Joi.number().integer().min(10).default(20_000),
    backoff: Joi.object({
      initialMs: Joi.number().integer().min(1).default(500),
      maxMs: Joi.number().integer().min(1).default(30_000),
    }).default(),
  }).default(),
});

export default definePlugin({
  id: 'limitless',
  displayName: 'Limitless',
  secretHeaders: ['lmts-api-key', 'lmts-signature', 'x-api-key'],
  packageJson: new URL('../package.json', import.meta.url),
  config,
  create: createLimitlessAdapter,
});
