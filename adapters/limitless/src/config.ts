import { socketUrl, streamConfig, venueUrl } from '@predgate/core';
import type { StreamConfig } from '@predgate/core';
import Joi from 'joi';

export interface LimitlessConfig {
  /** REST root (no version prefix). */
  baseUrl: string;
  /** Socket.IO root of the streaming methods (the `/markets` namespace). */
  ws: string;
  /** Streaming: websocket keepalive pings and reconnect delays. */
  stream: StreamConfig;
}

export const configSchema = Joi.object<LimitlessConfig, true>({
  baseUrl: venueUrl('https://api.limitless.exchange'),
  ws: socketUrl('wss://ws.limitless.exchange'),
  stream: streamConfig(),
});
