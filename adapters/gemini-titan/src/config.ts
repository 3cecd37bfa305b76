import { socketUrl, streamConfig, venueUrl } from '@predgate/core';
import type { StreamConfig } from '@predgate/core';
import Joi from 'joi';
import { depthStreams } from './streams/market-stream.js';
import type { DepthStream } from './streams/market-stream.js';

export interface GeminiTitanConfig {
  /** REST root; the sandbox is `https://api.sandbox.gemini.com`. */
  baseUrl: string;
  /** Market-data websocket of the streaming methods; defaults to `wss://ws.gemini.com`, or the sandbox's when `baseUrl` is the sandbox. */
  wsUrl: string;
  /** Streaming: the partial-depth stream books come from, keepalive and reconnect delays. */
  stream: StreamConfig & { depth: DepthStream };
}

export const configSchema = Joi.object<GeminiTitanConfig, true>({
  baseUrl: venueUrl('https://api.gemini.com'),
  wsUrl: socketUrl('wss://ws.gemini.com').default((parent: { baseUrl?: string }) =>
    /sandbox\.gemini\.com/.test(parent.baseUrl ?? '') ? 'wss://ws.sandbox.gemini.com' : 'wss://ws.gemini.com',
  ),
  // The depth stream is the one member streamConfig's type does not know.
  stream: streamConfig(
    { pingIntervalMs: 30_000 },
    {
      depth: Joi.string()
        .valid(...depthStreams)
        .default('depth20'),
    },
  ) as Joi.ObjectSchema<GeminiTitanConfig['stream']>,
});
