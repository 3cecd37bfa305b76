import { definePlugin } from '@predgate/core';
import { createKalshiAdapter } from './adapter.js';
import { configSchemaFor, kalshiDemoVenue, kalshiVenue } from './config.js';
import type { KalshiVenue } from './config.js';

/**
 * A plugin per venue over one implementation. Each venue id gets its own
 * manifest entry (hosts, credentials, version pin); the gateway's loader
 * picks the plugin whose id the entry names.
 */
const pluginFor = (venue: KalshiVenue) =>
  definePlugin({
    id: venue.id,
    displayName: venue.displayName,
    secretHeaders: ['KALSHI-ACCESS-KEY', 'KALSHI-ACCESS-SIGNATURE'],
    packageJson: new URL('../package.json', import.meta.url),
    config: configSchemaFor(venue),
    create: (context, config) => createKalshiAdapter(context, venue, config),
  });

/** Kalshi production: `external-api.kalshi.com`, falling back to `api.elections.kalshi.com`. */
export const kalshiPlugin = pluginFor(kalshiVenue);

/** Kalshi's demo (paper-money) environment: `external-api.demo.kalshi.co` (falling back to `demo-api.kalshi.co`), with its own accounts and keys. */
export const kalshiDemoPlugin = pluginFor(kalshiDemoVenue);

export const plugins = [kalshiPlugin, kalshiDemoPlugin];

export default kalshiPlugin;
