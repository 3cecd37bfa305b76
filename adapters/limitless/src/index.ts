import { definePlugin } from '@predgate/core';
import { createLimitlessAdapter } from './adapter.js';
import { configSchema } from './config.js';

export default definePlugin({
  id: 'limitless',
  displayName: 'Limitless',
  secretHeaders: ['lmts-api-key', 'lmts-signature', 'x-api-key'],
  packageJson: new URL('../package.json', import.meta.url),
  config: configSchema,
  create: createLimitlessAdapter,
});
