import { existsSync, readFileSync } from 'node:fs';
import Joi from 'joi';
import semver from 'semver';
import { routerVenue } from '@predgate/core';
import { ConfigError } from '../config.js';

/** One venue the deployment serves: which adapter package provides it, at which versions. */
export interface ManifestVenue {
  id: string;
  package: string;
  /** Exact version or semver range the installed adapter must satisfy. */
  version: string;
  /** The adapter's own settings. */
  config: Record<string, unknown>;
  /**
   * How the catalog sweeps the venue: events per call, whether closed events
   * are kept too, and how far one sweep may shrink the venue's catalog before
   * the next must confirm it (`false`: never held).
   */
  catalog?: { pageSize?: number; status?: 'all' | 'active'; shrinkGuard?: { events: number; openMarkets: number } | false };
}

export interface Manifest {
  venues: ManifestVenue[];
}

/**
 * The manifest file:
 *
 * { "venues": {
 *     "polymarket": { "package": "@predgate/adapter-polymarket", "version": "0.1.3", "config": { ... } },
 *     "kalshi": { "package": "@predgate/adapter-kalshi", "version": "^0.1.0", "catalog": { "status": "active" } },
 *     "kalshi-demo": { "package": "@predgate/adapter-kalshi", "version": "^0.1.0", "enabled": false } } }
 */
const manifestSchema = Joi.object({
  venues: Joi.object()
    .pattern(
      Joi.string()
        .pattern(/^[a-z0-9][a-z0-9_-]*$/, 'venue id')
        .invalid(routerVenue),
      Joi.object({
        package: Joi.string().required(),
        version: Joi.string()
          .required()
          .custom((value: string, helpers) => (semver.validRange(value) ? value : helpers.error('any.invalid')))
          .messages({ 'any.invalid': '{{#label}} must be a version or semver range, got "{{#value}}"' }),
        enabled: Joi.boolean().default(true),
        config: Joi.object().unknown(true).default({}),
        catalog: Joi.object({
          pageSize: Joi.number().integer().min(1).max(1_000),
          status: Joi.string().valid('all', 'active'),
          shrinkGuard: Joi.alternatives(
            Joi.boolean().valid(false),
            Joi.object({ events: Joi.number().min(0).max(1).required(), openMarkets: Joi.number().min(0).max(1).required() }),
          ),
        }),
      }),
    )
    .required(),
}).required();

export function readManifest(path: string): Manifest {
  if (!existsSync(path)) throw new ConfigError(`Deployment manifest not found: ${path}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`Deployment manifest ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseManifest(parsed, path);
}

export function parseManifest(candidate: unknown, source = 'manifest'): Manifest {
  const { error, value } = manifestSchema.validate(candidate, { abortEarly: true });
  if (error) throw new ConfigError(`Deployment manifest ${source}: ${error.message}`);
  const entries = Object.entries((value as { venues: Record<string, Omit<ManifestVenue, 'id'> & { enabled: boolean }> }).venues);
  return {
    venues: entries.filter(([, entry]) => entry.enabled).map(([id, { enabled: _enabled, ...entry }]) => ({ id, ...entry })),
  };
}
