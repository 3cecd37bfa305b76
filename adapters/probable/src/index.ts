import { definePlugin } from '@predgate/core';
import { createProbableAdapter } from './adapter.js';
import { configSchema } from './config.js';

export default definePlugin({
  id: 'probable',
  displayName: 'Probable',
  secretHeaders: ['prob_signature', 'prob_api_key', 'prob_passphrase'],
  packageJson: new URL('../package.json', import.meta.url),
  config: configSchema,
  create: createProbableAdapter,
});
