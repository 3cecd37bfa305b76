import { definePlugin } from '@predgate/core';
import { createMyriadAdapter } from './adapter.js';
import { configSchema } from './config.js';

export default definePlugin({
  id: 'myriad',
  displayName: 'Myriad',
  secretHeaders: ['x-api-key'],
  packageJson: new URL('../package.json', import.meta.url),
  config: configSchema,
  create: createMyriadAdapter,
});
