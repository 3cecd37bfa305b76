import { definePlugin } from '@predgate/core';
import Joi from 'joi';
import { createMyriadAdapter } from './adapter.js';

export interface MyriadConfig {
  baseUrl: string;
  /** The operator's key: optional, it raises the venue's rate limits. A caller's own `apiKey` replaces it. */
  apiKey?: string;
}

const config = Joi.object<MyriadConfig, true>({
  baseUrl: Joi.string()
    .uri({ scheme: ['https', 'http'] })
    .replace(/\/+$/, '')
    .default('https://api-v2.myriadprotocol.com'),
  apiKey: Joi.string().max(200),
});

export default definePlugin({
  id: 'myriad',
  displayName: 'Myriad',
  secretHeaders: ['x-api-key'],
  packageJson: new URL('../package.json', import.meta.url),
  config,
  create: createMyriadAdapter,
});
