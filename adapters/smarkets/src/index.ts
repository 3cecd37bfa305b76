import { definePlugin } from '@predgate/core';
import { createSmarketsAdapter } from './adapter.js';
import { configSchema } from './config.js';

export default definePlugin({
  id: 'smarkets',
  displayName: 'Smarkets',
  secretHeaders: ['authorization'],
  packageJson: new URL('../package.json', import.meta.url),
  config: configSchema,
  create: createSmarketsAdapter,
});
