import { definePlugin } from '@predgate/core';
import { createOpinionAdapter } from './adapter.js';
import { configSchema } from './config.js';

export default definePlugin({
  id: 'opinion',
  displayName: 'Opinion',
  secretHeaders: ['apikey'],
  packageJson: new URL('../package.json', import.meta.url),
  config: configSchema,
  create: createOpinionAdapter,
});
