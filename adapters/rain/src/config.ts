import { socketUrl, streamConfig, venueUrl } from '@predgate/core';
import type { StreamConfig } from '@predgate/core';
import Joi from 'joi';

/** The adapter's section of the deployment manifest. */
export interface RainConfig {
  /** Rain's REST API (v1): pools and their options. */
  baseUrl: string;
  /** An Arbitrum One JSON-RPC endpoint: option prices and pool totals. */
  rpcUrl: string;
  /** Rain's subgraph on The Graph's gateway: trades and candles. */
  subgraphUrl: string;
  /** The operator's The Graph API key (the gateway refuses queries without one); a caller's own `apiKey` replaces it. */
  subgraphApiKey?: string;
  /** Socket.IO root of the live pool events (Rain's REST host); `watchTrades` reads them. */
  ws: string;
  /** Streaming: websocket keepalive pings and reconnect delays. */
  stream: StreamConfig;
}

export const configSchema = Joi.object<RainConfig, true>({
  baseUrl: venueUrl('https://prod-api.rain.one'),
  rpcUrl: venueUrl('https://arb1.arbitrum.io/rpc'),
  subgraphUrl: venueUrl('https://gateway.thegraph.com/api/subgraphs/id/poBixDnF3hyafnLs9i1qkCpFppAAgmmWYgtsXrfYAWQ'),
  subgraphApiKey: Joi.string().max(200),
  ws: socketUrl('wss://prod-api.rain.one'),
  stream: streamConfig(),
});
