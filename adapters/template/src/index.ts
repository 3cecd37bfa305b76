import { definePlugin } from '@predgate/core';
import { createTemplateAdapter } from './adapter.js';
import { configSchema } from './config.js';

export default definePlugin({
  id: 'template',
  displayName: 'Template venue',
  packageJson: new URL('../package.json', import.meta.url),
  // Headers carrying credentials or signatures, blanked in logs (this venue's public reads send none).
  secretHeaders: [],
  config: configSchema,
  create: createTemplateAdapter,
});
