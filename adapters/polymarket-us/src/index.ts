import { definePlugin } from '@predgate/core';
import { createPolymarketUsAdapter } from './adapter.js';
import { configSchema } from './config.js';

export default definePlugin({
  id: 'polymarket_us',
  displayName: 'Polymarket US',
  secretHeaders: ['x-pm-access-key', 'x-pm-signature'],
  packageJson: new URL('../package.json', import.meta.url),
  config: configSchema,
  create: createPolymarketUsAdapter,
});

export { PolymarketUsSigner } from './auth/signer.js';
