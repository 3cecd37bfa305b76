import { venueUrl } from '@predgate/core';
import Joi from 'joi';

export interface SmarketsConfig {
  /** REST root; paths end in a slash. */
  baseUrl: string;
}

export const configSchema = Joi.object<SmarketsConfig, true>({
  baseUrl: venueUrl('https://api.smarkets.com'),
});
