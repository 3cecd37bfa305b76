import { createRequire } from 'node:module';
import Joi from 'joi';
import semver from 'semver';
import type { HttpClientFactory } from './http/venue-http-client.js';
import type { VenueAdapter } from './methods/adapter.js';
import type { Credentials } from './model/index.js';
import type { Clock, Logger } from './runtime.js';

/** What the gateway hands an adapter when it makes one. */
export interface AdapterContext {
  /** Venue HTTP clients sharing one keep-alive pool and rate limit per venue. */
  http: HttpClientFactory;
  logger: Logger;
  clock: Clock;
  /** The adapter's own section of the deployment manifest (base URL overrides, page sizes, ...). */
  config: Record<string, unknown>;
  /** The caller's venue credentials; absent for the shared instance that serves public data. */
  credentials?: Credentials;
}

/**
 * The object an adapter package exports. It is plain data plus a factory, so
 * a third-party adapter needs no decorators and no base class.
 */
export interface AdapterPlugin<A extends VenueAdapter = VenueAdapter> {
  /** Venue id, as in `/api/{exchange}/...`. */
  id: string;
  /** The package's version (semver). */
  version: string;
  /** Versions of `@predgate/core` the adapter works with (a semver range). */
  coreRange: string;
  displayName: string;
  /**
   * Request headers the adapter sends that carry credentials or signatures
   * (any case): the gateway blanks them in every log line.
   */
  secretHeaders?: readonly string[];
  /**
   * Set only on the gateway's Router: it answers for every venue at once,
   * from the catalog, so `sourceExchange` is one of its filters, not a scope.
   */
  spansVenues?: boolean;
  create(context: AdapterContext): A;
}

/** The Router's venue id, which no adapter package and no manifest entry may claim. */
export const routerVenue = 'router';

const require = createRequire(import.meta.url);

/** Version of the running `@predgate/core`. */
export const coreVersion: string = (require('../package.json') as { version: string }).version;

export class AdapterPluginError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdapterPluginError';
  }
}

const pluginSchema = Joi.object({
  id: Joi.string()
    .pattern(/^[a-z0-9][a-z0-9_-]*$/, 'venue id (lower case letters, digits, "-" and "_")')
    .invalid(routerVenue)
    .required(),
  version: Joi.string()
    .custom((value: string, helpers) => (semver.valid(value) ? value : helpers.error('any.invalid')))
    .required()
    .messages({ 'any.invalid': '{{#label}} must be a semver version, got "{{#value}}"' }),
  coreRange: Joi.string()
    .custom((value: string, helpers) => (semver.validRange(value) ? value : helpers.error('any.invalid')))
    .required()
    .messages({ 'any.invalid': '{{#label}} must be a semver range, got "{{#value}}"' }),
  displayName: Joi.string().required(),
  secretHeaders: Joi.array()
    .items(Joi.string().pattern(/^[A-Za-z0-9_-]+$/, 'header name'))
    .max(50),
  spansVenues: Joi.forbidden().messages({ 'any.unknown': 'only the gateway’s Router spans venues' }),
  create: Joi.function().required(),
})
  .unknown(true)
  .required();

/**
 * Checks an imported adapter plugin and that it accepts the running core.
 * `source` names where it came from (its package) in every message.
 */
export function validateAdapterPlugin(candidate: unknown, source: string, runningCore: string = coreVersion): AdapterPlugin {
  const { error } = pluginSchema.validate(candidate, { abortEarly: true });
  if (error) throw new AdapterPluginError(`${source}: invalid adapter plugin: ${error.message}`);
  const plugin = candidate as AdapterPlugin;
  if (!semver.satisfies(runningCore, plugin.coreRange, { includePrerelease: true })) {
    throw new AdapterPluginError(`${source}: needs @predgate/core ${plugin.coreRange}, but the running core is ${runningCore}`);
  }
  return plugin;
}

/**
 * An adapter's configuration from the deployment manifest, checked against
 * the adapter's schema (defaults applied) with a message naming the bad field.
 */
export function readAdapterConfig<T>(schema: Joi.ObjectSchema<T>, config: Record<string, unknown>, venue: string): T {
  const { error, value } = schema.validate(config, { abortEarly: true });
  if (error) throw new AdapterPluginError(`${venue}: invalid adapter configuration: ${error.message}`);
  return value as T;
}
