import { definePlugin } from '@predgate/core';
import { createRainAdapter } from './adapter.js';
import { configSchema } from './config.js';

export default definePlugin({
  id: 'rain',
  displayName: 'Rain',
  secretHeaders: ['authorization'],
  packageJson: new URL('../package.json', import.meta.url),
  config: configSchema,
  create: createRainAdapter,
});
