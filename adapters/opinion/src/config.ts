import { socketUrl, streamConfig, venueUrl } from '@predgate/core';
import type { StreamConfig } from '@predgate/core';
import Joi from 'joi';

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
  stream: StreamConfig;
}

export const configSchema = Joi.object<OpinionConfig, true>({
  baseUrl: venueUrl('https://openapi.opinion.trade/openapi'),
  tradingUrl: venueUrl('https://proxy.opinion.trade:8443/openapi'),
  apiKey: Joi.string().min(1),
  exchangeAddress: Joi.string()
    .pattern(/^0x[0-9a-fA-F]{40}$/)
    .default('0x5F45344126D6488025B0b84A3A8189F2487a7246'),
  wsUrl: socketUrl('wss://ws.opinion.trade'),
  stream: streamConfig(),
});
