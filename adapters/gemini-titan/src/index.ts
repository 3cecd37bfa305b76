import { definePlugin } from '@predgate/core';
import { createGeminiTitanAdapter } from './adapter.js';
import { configSchema } from './config.js';

export default definePlugin({
  id: 'gemini-titan',
  displayName: 'Gemini Predictions',
  secretHeaders: ['x-gemini-apikey', 'x-gemini-signature'],
  packageJson: new URL('../package.json', import.meta.url),
  config: configSchema,
  create: createGeminiTitanAdapter,
});
