import { readAdapterConfig, socketUrl, streamConfig, venueUrl } from '@predgate/core';
import type { StreamConfig } from '@predgate/core';
import Joi from 'joi';
import { venueId } from './venue.js';
import { polymarketMarketChannelUrl } from './streams/market-channel.js';

/** Base URLs of the three Polymarket APIs the adapter calls. */
export interface PolymarketHosts {
  /** Gamma: events, markets, series, search. */
  gamma: string;
  /** CLOB: books, price history, account and orders. */
  clob: string;
  /** Data API: public trade tape and positions. */
  data: string;
}

export interface PolymarketConfig {
  hosts: PolymarketHosts;
  /** Gamma listing page size when a call gives no `limit`. */
  pageSize: number;
  /** Gamma sits behind Cloudflare, which refuses clients without a browser-like User-Agent. */
  userAgent: string;
  /**
   * One budget for all three hosts (the factory keeps one client per venue):
   * 150 requests per 10 s by default keeps under the tightest limit the
   * adapter meets, Data API `/positions`; Gamma and the CLOB allow far more.
   */
  rateLimit: { requests: number; intervalMs: number };
  /** The CLOB market websocket the streaming methods read. */
  ws: string;
  /** Streaming: keepalive pings and reconnect delays. */
  stream: StreamConfig;
}

const defaultHosts: PolymarketHosts = {
  gamma: 'https://gamma-api.polymarket.com',
  clob: 'https://clob.polymarket.com',
  data: 'https://data-api.polymarket.com',
};

/** Gamma answers at most this many items per list request. */
export const gammaMaxPage = 500;

export const configSchema = Joi.object<PolymarketConfig, true>({
  hosts: Joi.object({
    gamma: venueUrl(defaultHosts.gamma),
    clob: venueUrl(defaultHosts.clob),
    data: venueUrl(defaultHosts.data),
  }).default(),
  pageSize: Joi.number().integer().min(1).max(gammaMaxPage).default(100),
  userAgent: Joi.string().min(1).default('Mozilla/5.0 (compatible; predgate-adapter-polymarket)'),
  rateLimit: Joi.object({
    requests: Joi.number().integer().min(1).required(),
    intervalMs: Joi.number().integer().min(1).required(),
  }).default({ requests: 150, intervalMs: 10_000 }),
  ws: socketUrl(polymarketMarketChannelUrl),
  // The venue drops a connection silent for about 10 s.
  stream: streamConfig({ pingIntervalMs: 10_000 }),
});

/** Reads the adapter's section of the deployment manifest, defaults applied. */
export function readPolymarketConfig(config: Record<string, unknown>): PolymarketConfig {
  return readAdapterConfig(configSchema, config, venueId);
}
