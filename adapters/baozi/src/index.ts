import { definePlugin } from '@predgate/core';
import { createBaoziAdapter } from './adapter.js';
import { configSchema } from './config.js';

export default definePlugin({
  id: 'baozi',
  displayName: 'Baozi',
  packageJson: new URL('../package.json', import.meta.url),
  // Transactions are signed in the request body: no header carries a credential.
  secretHeaders: [],
  config: configSchema,
  create: createBaoziAdapter,
});
