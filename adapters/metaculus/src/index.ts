import { definePlugin } from '@predgate/core';
import Joi from 'joi';
import { createMetaculusAdapter } from './adapter.js';

export interface MetaculusConfig {
  /** API root; paths end in a slash. */
  baseUrl: string;
  /**
   * Environment variable holding the operator's API token, used when a caller
   * brings none (the catalog's sweeps): the token itself never goes in the manifest.
   */
  apiTokenEnv: string;
}

const config = Joi.object<MetaculusConfig, true>({
  baseUrl: Joi.string()
    .uri({ scheme: ['https', 'http'] })
    .replace(/\/+$/, '')
    .default('https://www.metaculus.com/api'),
  apiTokenEnv: Joi.string()
    .pattern(/^[A-Z_][A-Z0-9_]{0,63}$/)
    .default('METACULUS_API_TOKEN'),
});

export default definePlugin({
  id: 'metaculus',
  displayName: 'Metaculus',
  secretHeaders: ['authorization'],
  packageJson: new URL('../package.json', import.meta.url),
  config,
  create: createMetaculusAdapter,
});
