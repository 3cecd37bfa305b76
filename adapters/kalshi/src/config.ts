import { socketUrl, streamConfig, venueUrl } from '@predgate/core';
import type { StreamConfig } from '@predgate/core';
import Joi from 'joi';

/**
 * The two venues this package serves. They share every endpoint, schema and
 * signing rule; they differ in hosts, display name and accounts (a demo key
 * only works against demo hosts, and the reverse).
 */
export interface KalshiVenue {
  /** Venue id, as in `/api/{exchange}/...`; also every object's `sourceExchange`. */
  readonly id: 'kalshi' | 'kalshi-demo';
  readonly displayName: string;
  /** REST root, ending in `/trade-api/v2`: the host Kalshi recommends. */
  readonly rest: string;
  /** Origins serving the same REST API, asked when the recommended host does not resolve or connect. */
  readonly restFallbacks: readonly string[];
  /** Web site whose `/events/{ticker}` pages Event.url and Market.url point at. */
  readonly web: string;
  /** Websocket root (`/trade-api/ws/v2`) Kalshi recommends; the handshake is signed even for public channels. */
  readonly ws: string;
  /** Roots serving the same channels, dialled when the recommended host does not resolve or connect. */
  readonly wsFallbacks: readonly string[];
}

export const kalshiVenue: KalshiVenue = {
  id: 'kalshi',
  displayName: 'Kalshi',
  rest: 'https://external-api.kalshi.com/trade-api/v2',
  restFallbacks: ['https://api.elections.kalshi.com'],
  web: 'https://kalshi.com',
  ws: 'wss://external-api-ws.kalshi.com/trade-api/ws/v2',
  wsFallbacks: ['wss://api.elections.kalshi.com/trade-api/ws/v2'],
};

export const kalshiDemoVenue: KalshiVenue = {
  id: 'kalshi-demo',
  displayName: 'KalshiDemo',
  rest: 'https://external-api.demo.kalshi.co/trade-api/v2',
  restFallbacks: ['https://demo-api.kalshi.co'],
  web: 'https://demo.kalshi.co',
  ws: 'wss://external-api-ws.demo.kalshi.co/trade-api/ws/v2',
  wsFallbacks: ['wss://demo-api.kalshi.co/trade-api/ws/v2'],
};

export interface KalshiConfig {
  hosts: {
    /** REST root including `/trade-api/v2`. */
    rest: string;
    /** Origins asked, in order, when the REST host does not resolve or connect (the same paths; an empty list turns this off). */
    restFallbacks: string[];
    /** Web site for Event.url and Market.url. */
    web: string;
    /** Websocket root of the streaming methods. */
    ws: string;
    /** Roots dialled, in order, when the websocket host does not resolve or connect (an empty list turns this off). */
    wsFallbacks: string[];
  };
  /** Events per `GET /events` page (the venue allows 1 to 200). */
  pageSize: number;
  /** Venue pages one unified call may read, so a search or an "all" sweep cannot walk the whole venue. */
  maxPages: number;
  /** Request budget for the venue client (Kalshi's Basic tier allows 20 reads and 10 writes per second). */
  rateLimit: { requests: number; intervalMs: number };
  /**
   * Streaming: keepalive and reconnect delays, and the operator's read key for
   * the websocket handshake (Kalshi signs it even for public channels) when a
   * subscription brings no credentials of its own.
   */
  stream: StreamConfig & StreamCredentials;
}

/** The operator's read key the websocket handshake is signed with. */
interface StreamCredentials {
  credentials?: { apiKey: string; privateKey: string };
}

const defaults = {
  pageSize: 200,
  maxPages: 10,
  rateLimit: { requests: 10, intervalMs: 1_000 },
};

/** The manifest section of a Kalshi venue, with that venue's hosts as defaults. */
export function configSchemaFor(venue: KalshiVenue): Joi.ObjectSchema<KalshiConfig> {
  // Fallback origins: the same URL rule as the kit's, without a default of their own.
  const url = Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .replace(/\/+$/, '');
  const wsUrl = Joi.string()
    .uri({ scheme: ['ws', 'wss'] })
    .replace(/\/+$/, '');
  return Joi.object<KalshiConfig, true>({
    hosts: Joi.object({
      rest: venueUrl(venue.rest),
      restFallbacks: Joi.array()
        .items(url)
        .max(5)
        .default(() => [...venue.restFallbacks]),
      web: venueUrl(venue.web),
      ws: socketUrl(venue.ws),
      wsFallbacks: Joi.array()
        .items(wsUrl)
        .max(5)
        .default(() => [...venue.wsFallbacks]),
    }).default(),
    pageSize: Joi.number().integer().min(1).max(200).default(defaults.pageSize),
    maxPages: Joi.number().integer().min(1).max(1_000).default(defaults.maxPages),
    rateLimit: Joi.object({
      requests: Joi.number().integer().min(1).required(),
      intervalMs: Joi.number().integer().min(1).required(),
    }).default(defaults.rateLimit),
    stream: streamConfig<StreamCredentials>(
      { pingIntervalMs: 10_000 },
      { credentials: Joi.object({ apiKey: Joi.string().required(), privateKey: Joi.string().required() }) },
    ),
  });
}
