import Joi from 'joi';
import type { KalshiVenue } from './venues.js';

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
  stream: { pingIntervalMs: number; backoff: { initialMs: number; maxMs: number }; credentials?: { apiKey: string; privateKey: string } };
}

const defaults = {
  pageSize: 200,
  maxPages: 10,
  rateLimit: { requests: 10, intervalMs: 1_000 },
};

/** The manifest section of a Kalshi venue, with that venue's hosts as defaults. */
export function configSchemaFor(venue: KalshiVenue): Joi.ObjectSchema<KalshiConfig> {
  const url = Joi.string().uri({ scheme: ['http', 'https'] });
  const wsUrl = Joi.string().uri({ scheme: ['ws', 'wss'] });
  return Joi.object<KalshiConfig, true>({
    hosts: Joi.object({
      rest: url.default(venue.rest),
      restFallbacks: Joi.array()
        .items(url)
        .max(5)
        .default(() => [...venue.restFallbacks]),
      web: url.default(venue.web),
      ws: wsUrl.default(venue.ws),
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
    stream: Joi.object({
      pingIntervalMs: Joi.number().integer().min(10).default(10_000),
      backoff: Joi.object({
        initialMs: Joi.number().integer().min(1).default(500),
        maxMs: Joi.number().integer().min(1).default(30_000),
      }).default(),
      credentials: Joi.object({ apiKey: Joi.string().required(), privateKey: Joi.string().required() }),
    }).default(),
  });
}
