import { createRequire } from 'node:module';
import { readAdapterConfig } from '@predgate/core';
import type { AdapterPlugin } from '@predgate/core';
import { PolymarketAdapter } from './adapter.js';
import type { PolymarketAdapterOptions } from './adapter.js';
import { configSchema } from './config.js';
import type { PolymarketConfig, PolymarketHosts } from './config.js';
import { displayName, venueId } from './venue.js';

const manifest = createRequire(import.meta.url)('../package.json') as {
  version: string;
  peerDependencies: Record<string, string>;
};

/** Reads the adapter's section of the deployment manifest, defaults applied. */
export function readPolymarketConfig(config: Record<string, unknown>): PolymarketConfig {
  return readAdapterConfig(configSchema, config, venueId);
}

/** The plugin object the gateway loads. */
export const plugin: AdapterPlugin<PolymarketAdapter> = {
  id: venueId,
  version: manifest.version,
  // The range this package declares for its peer dependency is the one it is built for.
  coreRange: manifest.peerDependencies['@predgate/core']!,
  displayName,
  create: (context) => new PolymarketAdapter(context, readPolymarketConfig(context.config)),
};

export default plugin;
export { PolymarketAdapter };
export type { PolymarketAdapterOptions, PolymarketConfig, PolymarketHosts };
