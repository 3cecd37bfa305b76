import { socketUrl, streamConfig, venueUrl } from '@predgate/core';
import type { StreamConfig } from '@predgate/core';
import Joi from 'joi';

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
  stream: StreamConfig & { credentials?: { apiKey: string; privateKey: string } };
}

export const configSchema = Joi.object<PolymarketUsConfig, true>({
  gatewayUrl: venueUrl('https://gateway.polymarket.us'),
  apiUrl: venueUrl('https://api.polymarket.us'),
  wsUrl: socketUrl('wss://api.polymarket.us/v1/ws/markets'),
  stream: streamConfig({}, { credentials: Joi.object({ apiKey: Joi.string().required(), privateKey: Joi.string().required() }) }),
});
