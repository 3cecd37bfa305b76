import { definePlugin } from '@predgate/core';
import { createMockAdapter } from './adapter.js';
import type { MockAdapter } from './adapter.js';
import { configSchema } from './config.js';
import type { MockConfig } from './config.js';

/** The plugin object the gateway loads: everything it needs to know, and a factory. */
export const plugin = definePlugin({
  id: 'mock',
  displayName: 'Mock (simulated venue)',
  packageJson: new URL('../package.json', import.meta.url),
  config: configSchema,
  create: createMockAdapter,
});

export default plugin;
export { createMockAdapter };
export type { MockAdapter, MockConfig };
export { generateCatalog } from './simulation/catalog.js';
