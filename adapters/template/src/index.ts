import { definePlugin } from '@predgate/core';
import Joi from 'joi';
import { createTemplateAdapter } from './adapter.js';

export interface TemplateConfig {
  /** Base URL of the venue's REST API; the manifest can point it elsewhere (a staging host, a recorder). */
  baseUrl: string;
}

const config = Joi.object<TemplateConfig, true>({
  baseUrl: Joi.string().uri().default('https://api.example-venue.com'),
});

export default definePlugin({
  id: 'template',
  displayName: 'Template venue',
  packageJson: new URL('../package.json', import.meta.url),
  config,
  create: createTemplateAdapter,
});
