import { definePlugin } from '@predgate/core';
import Joi from 'joi';
import { createMockAdapter, defaultMockConfig } from './adapter.js';
import type { MockAdapter, MockConfig } from './adapter.js';

const config = Joi.object<MockConfig, true>({
  seed: Joi.string().default(defaultMockConfig.seed),
  events: Joi.number().integer().min(1).max(1_000_000).default(defaultMockConfig.events),
  startingCash: Joi.number().min(0).default(defaultMockConfig.startingCash),
  tickMs: Joi.number().integer().min(1).max(60_000).default(defaultMockConfig.tickMs),
});

/** The plugin object the gateway loads: everything it needs to know, and a factory. */
export const plugin = definePlugin({
  id: 'mock',
  displayName: 'Mock (simulated venue)',
  packageJson: new URL('../package.json', import.meta.url),
  config,
  create: createMockAdapter,
});

export default plugin;
export { createMockAdapter };
export type { MockAdapter, MockConfig };
export { generateCatalog } from './simulation/catalog.js';
