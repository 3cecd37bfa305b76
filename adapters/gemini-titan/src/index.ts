import { definePlugin } from '@predgate/core';
import Joi from 'joi';
import { createGeminiTitanAdapter } from './adapter.js';
import { depthStreams } from './streams/market-stream.js';
import type { DepthStream } from './streams/market-stream.js';

export interface GeminiTitanConfig {
  /** REST root; the sandbox is `https://api.sandbox.gemini.com`. */
  baseUrl: string;
  /** Market-data websocket of the streaming methods; defaults to `wss://ws.gemini.com`, or the sandbox's when `baseUrl` is the sandbox. */
  wsUrl: string;
  /** Streaming: the partial-depth stream books come from, keepalive and reconnect delays. */
  stream: { depth: DepthStream; pingIntervalMs: number; backoff: { initialMs: number; maxMs: number } };
}

const config = Joi.object<GeminiTitanConfig, true>({
  baseUrl: Joi.string()
    .uri({ scheme: ['https', 'http'] })
    .replace(/\/+$/, '')
    .default('https://api.gemini.com'),
  wsUrl: Joi.string()
    .uri({ scheme: ['ws', 'wss'] })
    .default((parent: { baseUrl?: string }) => (/sandbox\.gemini\.com/.test(parent.baseUrl ?? '') ? 'wss://ws.sandbox.gemini.com' : 'wss://ws.gemini.com')),
  stream: Joi.object({
    depth: Joi.string()
      .valid(...depthStreams)
      .default('depth20'),
    pingIntervalMs: Joi.number().integer().min(10).default(30_000),
    backoff: Joi.object({
      initialMs: Joi.number().integer().min(1).default(500),
      maxMs: Joi.number().integer().min(1).default(30_000),
    }).default(),
  }).default(),
});

export default definePlugin({
  id: 'gemini-titan',
  displayName: 'Gemini Predictions',
  secretHeaders: ['x-gemini-apikey', 'x-gemini-signature'],
  packageJson: new URL('../package.json', import.meta.url),
  config,
  create: createGeminiTitanAdapter,
});
