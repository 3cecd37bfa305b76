import { venueUrl } from '@predgate/core';
import Joi from 'joi';

export interface MyriadConfig {
  baseUrl: string;
  /** The operator's key: optional, it raises the venue's rate limits. A caller's own `apiKey` replaces it. */
  apiKey?: string;
}

export const configSchema = Joi.object<MyriadConfig, true>({
  baseUrl: venueUrl('https://api-v2.myriadprotocol.com'),
  apiKey: Joi.string().max(200),
});
