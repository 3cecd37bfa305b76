import { venueUrl } from '@predgate/core';
import Joi from 'joi';

export interface MetaculusConfig {
  /** API root; paths end in a slash. */
  baseUrl: string;
  /**
   * Environment variable holding the operator's API token, used when a caller
   * brings none (the catalog's sweeps): the token itself never goes in the manifest.
   */
  apiTokenEnv: string;
}

export const configSchema = Joi.object<MetaculusConfig, true>({
  baseUrl: venueUrl('https://www.metaculus.com/api'),
  apiTokenEnv: Joi.string()
    .pattern(/^[A-Z_][A-Z0-9_]{0,63}$/)
    .default('METACULUS_API_TOKEN'),
});
