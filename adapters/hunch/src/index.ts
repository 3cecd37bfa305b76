import { definePlugin } from '@predgate/core';
import { createHunchAdapter } from './adapter.js';
import { configSchema } from './config.js';

export default definePlugin({
  id: 'hunch',
  displayName: 'Hunch',
  secretHeaders: ['x-payment'],
  packageJson: new URL('../package.json', import.meta.url),
  config: configSchema,
  create: createHunchAdapter,
});
