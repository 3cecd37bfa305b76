import { definePlugin } from '@predgate/core';
import { createPolymarketAdapter } from './adapter.js';
import { configSchema } from './config.js';
import { displayName, venueId } from './venue.js';

export default definePlugin({
  id: venueId,
  displayName,
  secretHeaders: ['POLY_SIGNATURE', 'POLY_API_KEY', 'POLY_PASSPHRASE'],
  packageJson: new URL('../package.json', import.meta.url),
  config: configSchema,
  create: (context, config) => createPolymarketAdapter(context, config),
});
