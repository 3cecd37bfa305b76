import { definePlugin } from '@predgate/core';
import { createMetaculusAdapter } from './adapter.js';
import { configSchema } from './config.js';

export default definePlugin({
  id: 'metaculus',
  displayName: 'Metaculus',
  secretHeaders: ['authorization'],
  packageJson: new URL('../package.json', import.meta.url),
  config: configSchema,
  create: createMetaculusAdapter,
});
