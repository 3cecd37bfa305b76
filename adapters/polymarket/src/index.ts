import { definePlugin, readAdapterConfig } from '@predgate/core';
import { createPolymarketAdapter } from './adapter.js';
import type { PolymarketAdapter, PolymarketAdapterOptions } from './adapter.js';
import { configSchema } from './config.js';
import type { PolymarketConfig, PolymarketHosts } from './config.js';
import { displayName, venueId } from './venue.js';

/** Reads the adapter's section of the deployment manifest, defaults applied. */
export function readPolymarketConfig(config: Record<string, unknown>): PolymarketConfig {
  return readAdapterConfig(configSchema, config, venueId);
}

/** The plugin object the gateway loads. */
export const plugin = definePlugin({
  id: venueId,
  displayName,
  secretHeaders: ['POLY_SIGNATURE', 'POLY_API_KEY', 'POLY_PASSPHRASE'],
  packageJson: new URL('../package.json', import.meta.url),
  config: configSchema,
  create: (context, config) => createPolymarketAdapter(context, config),
});

export default plugin;
export { createPolymarketAdapter };
export type { PolymarketAdapter, PolymarketAdapterOptions, PolymarketConfig, PolymarketHosts };
