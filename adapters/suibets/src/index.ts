import { definePlugin } from '@predgate/core';
import { createSuibetsAdapter } from './adapter.js';
import { configSchema } from './config.js';

export default definePlugin({
  id: 'suibets',
  displayName: 'SuiBets',
  packageJson: new URL('../package.json', import.meta.url),
  config: configSchema,
  create: createSuibetsAdapter,
});
