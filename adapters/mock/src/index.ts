import { definePlugin } from '@predgate/core';
import Joi from 'joi';
import { MockAdapter, defaultMockConfig } from './adapter.js';
import type { MockConfig } from './adapter.js';

const config = Joi.object<MockConfig, true>({
  seed: Joi.string().default(defaultMockConfig.seed),
  events: Joi.number().integer().min(1).max(1_000_000).default(defaultMockConfig.events),
  startingCash: Joi.number().min(0).default(defaultMockConfig.startingCash),
});

/** The plugin object the gateway loads: everything it needs to know, and a factory. */
export const plugin = definePlugin({
  id: 'mock',
  displayName: 'Mock (simulated venue)',
  packageJson: new URL('../package.json', import.meta.url),
  config,
  create: (context, mockConfig) => new MockAdapter(context, mockConfig),
});

export default plugin;
export { MockAdapter };
export type { MockConfig };
export { generateCatalog } from './simulation/catalog.js';
