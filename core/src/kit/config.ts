import Joi from 'joi';
import { isPredgateError } from '../errors.js';

/**
 * Pieces of an adapter's configuration schema (its section of the
 * deployment manifest) that every venue writes the same way.
 */

/** A venue URL the manifest may point elsewhere (a staging host, a recorder): http(s), trailing slashes dropped. */
export function venueUrl(defaultUrl: string): Joi.StringSchema {
  return urlOf(['https', 'http'], defaultUrl);
}

/** A venue websocket URL: ws(s), trailing slashes dropped. */
export function socketUrl(defaultUrl: string): Joi.StringSchema {
  return urlOf(['wss', 'ws'], defaultUrl);
}

/** How a venue stream keeps its socket alive and redials it. */
export interface StreamConfig {
  /** Keepalive pings, in milliseconds. */
  pingIntervalMs: number;
  /** Delays between reconnect attempts, growing from `initialMs` to `maxMs`. */
  backoff: { initialMs: number; maxMs: number };
}

/**
 * The `stream` block of a venue with websocket streams, with its defaults;
 * `extra` adds the venue's own members (Kalshi's handshake credentials), typed
 * as the block's `Extra`.
 */
export function streamConfig<Extra extends object = object>(
  defaults: { pingIntervalMs?: number } = {},
  extra: Joi.PartialSchemaMap<NoInfer<Extra>> = {},
): Joi.ObjectSchema<StreamConfig & Extra> {
  return Joi.object<StreamConfig & Extra>({
    pingIntervalMs: Joi.number()
      .integer()
      .min(10)
      .default(defaults.pingIntervalMs ?? 20_000),
    backoff: Joi.object({
      initialMs: Joi.number().integer().min(1).default(500),
      maxMs: Joi.number().integer().min(1).default(30_000),
    }).default(),
    ...extra,
  }).default();
}

/**
 * The answer, or undefined when the venue says the thing looked up does not
 * exist (any not-found error, 404): for lookups that fall back to another
 * way of finding it, or answer "nothing" as the method list says.
 */
export async function unlessMissing<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    if (isPredgateError(error) && error.status === 404) return undefined;
    throw error;
  }
}

function urlOf(schemes: string[], defaultUrl: string): Joi.StringSchema {
  return Joi.string().uri({ scheme: schemes }).replace(/\/+$/, '').default(defaultUrl);
}
