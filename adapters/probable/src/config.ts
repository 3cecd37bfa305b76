import { socketUrl, streamConfig, venueUrl } from '@predgate/core';
import type { StreamConfig } from '@predgate/core';
import Joi from 'joi';
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
  stream: StreamConfig;
}

export const configSchema = Joi.object<ProbableConfig, true>({
  marketsUrl: venueUrl('https://market-api.probable.markets/public/api/v1'),
  orderbookUrl: venueUrl('https://api.probable.markets/public/api/v1'),
  exchangeAddress: Joi.string()
    .pattern(/^0x[0-9a-fA-F]{40}$/)
    .default(defaultExchange),
  // Clients that traded live sign 175 (1.75%) and report lower rates refused; the SDK's default is 0.
  feeRateBps: Joi.number().integer().min(0).max(10_000).default(175),
  wsUrl: socketUrl('wss://ws.probable.markets/public/api/v1'),
  stream: streamConfig(),
});
