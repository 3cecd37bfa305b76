import { definePlugin } from '@predgate/core';
import { createHyperliquidAdapter } from './adapter.js';
import { configSchema } from './config.js';

export default definePlugin({
  id: 'hyperliquid',
  displayName: 'Hyperliquid',
  packageJson: new URL('../package.json', import.meta.url),
  // Actions are signed in the request body: no header carries a credential.
  secretHeaders: [],
  config: configSchema,
  create: createHyperliquidAdapter,
});
