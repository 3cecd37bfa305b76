import { createRequire } from 'node:module';
import { readAdapterConfig } from '@predgate/core';
import type { AdapterPlugin } from '@predgate/core';
import { KalshiAdapter } from './adapter.js';
import { configSchemaFor } from './config.js';
import type { KalshiConfig } from './config.js';
import { kalshiDemoVenue, kalshiVenue } from './venues.js';
import type { KalshiVenue } from './venues.js';

const manifest = createRequire(import.meta.url)('../package.json') as {
  version: string;
  peerDependencies: Record<string, string>;
};

/**
 * A plugin per venue over one implementation. Each venue id gets its own
 * manifest entry (hosts, credentials, version pin); the gateway's loader
 * picks the plugin whose id the entry names.
 */
function pluginFor(venue: KalshiVenue): AdapterPlugin<KalshiAdapter> {
  const schema = configSchemaFor(venue);
  return {
    id: venue.id,
    version: manifest.version,
    // The range this package declares for its peer dependency is the one it is built for.
    coreRange: manifest.peerDependencies['@predgate/core']!,
    displayName: venue.displayName,
    create: (context) => new KalshiAdapter(context, venue, readAdapterConfig(schema, context.config, venue.id)),
  };
}

/** Kalshi production: `api.elections.kalshi.com`. */
export const kalshiPlugin = pluginFor(kalshiVenue);

/** Kalshi's demo (paper-money) environment: `demo-api.kalshi.co`, with its own accounts and keys. */
export const kalshiDemoPlugin = pluginFor(kalshiDemoVenue);

export const plugins = [kalshiPlugin, kalshiDemoPlugin];

export default kalshiPlugin;
export { KalshiAdapter, kalshiDemoVenue, kalshiVenue };
export type { KalshiConfig, KalshiVenue };
