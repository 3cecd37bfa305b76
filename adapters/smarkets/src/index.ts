import { definePlugin } from '@predgate/core';
import Joi from 'joi';
import { createSmarketsAdapter } from './adapter.js';

export interface SmarketsConfig {
  /** REST root; paths end in a slash. */
  baseUrl: string;
}

const config = Joi.object<SmarketsConfig, true>({
  baseUrl: Joi.string()
    .uri({ scheme: ['https', 'http'] })
    .replace(/\/+$/, '')
    .default('https://api.smarkets.com'),
});

export default definePlugin({
  id: 'smarkets',
  displayName: 'Smarkets',
  secretHeaders: ['authorization'],
  packageJson: new URL('../package.json', import.meta.url),
  config,
  create: createSmarketsAdapter,
});
