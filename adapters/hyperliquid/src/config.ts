import { socketUrl, streamConfig, venueUrl } from '@predgate/core';
import type { StreamConfig } from '@predgate/core';
import Joi from 'joi';

/** The adapter's section of the deployment manifest. */
export interface HyperliquidConfig {
  /** REST root holding `/info` and `/exchange`. */
  baseUrl: string;
  /** Testnet signs actions with source "b"; point `baseUrl` at `https://api.hyperliquid-testnet.xyz` with it. */
  testnet: boolean;
  /** Websocket of the streaming methods; defaults to mainnet's, or testnet's with `testnet`. */
  wsUrl: string;
  /** Streaming: keepalive (the venue drops a connection silent for a minute) and reconnect delays. */
  stream: StreamConfig;
}

const mainnetWs = 'wss://api.hyperliquid.xyz/ws';
const testnetWs = 'wss://api.hyperliquid-testnet.xyz/ws';

export const configSchema = Joi.object<HyperliquidConfig, true>({
  baseUrl: venueUrl('https://api.hyperliquid.xyz'),
  testnet: Joi.boolean().default(false),
  wsUrl: socketUrl(mainnetWs).default((parent: { testnet?: boolean }) => (parent.testnet ? testnetWs : mainnetWs)),
  stream: streamConfig({ pingIntervalMs: 30_000 }),
});
