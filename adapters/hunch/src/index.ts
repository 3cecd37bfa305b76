import { definePlugin } from '@predgate/core';
import Joi from 'joi';
import { createHunchAdapter } from './adapter.js';

export interface HunchConfig {
  baseUrl: string;
}

const config = Joi.object<HunchConfig, true>({
  baseUrl: Joi.string()
    .uri({ scheme: ['https', 'http'] })
    .replace(/\/+$/, '')
    .default('https://www.playhunch.xyz'),
});

export default definePlugin({
  id: 'hunch',
  displayName: 'Hunch',
  secretHeaders: ['x-payment'],
  packageJson: new URL('../package.json', import.meta.url),
  config,
  create: createHunchAdapter,
});
