import { createRequire } from 'node:module';
import { readAdapterConfig } from '@predgate/core';
import type { AdapterPlugin } from '@predgate/core';
import Joi from 'joi';
import { MockAdapter, defaultMockConfig } from './adapter.js';
import type { MockConfig } from './adapter.js';

const manifest = createRequire(import.meta.url)('../package.json') as {
  version: string;
  peerDependencies: Record<string, string>;
};

const configSchema = Joi.object<MockConfig, true>({
  seed: Joi.string().default(defaultMockConfig.seed),
  events: Joi.number().integer().min(1).max(1_000_000).default(defaultMockConfig.events),
  startingCash: Joi.number().min(0).default(defaultMockConfig.startingCash),
});

/** The plugin object the gateway loads: everything it needs to know, and a factory. */
export const plugin: AdapterPlugin<MockAdapter> = {
  id: 'mock',
  version: manifest.version,
  // The range this package declares for its peer dependency is the one it is built for.
  coreRange: manifest.peerDependencies['@predgate/core']!,
  displayName: 'Mock (simulated venue)',
  create: (context) => new MockAdapter(context, readAdapterConfig(configSchema, context.config, 'mock')),
};

export default plugin;
export { MockAdapter };
export type { MockConfig };
export { generateCatalog } from './simulation/catalog.js';
