import { venueUrl } from '@predgate/core';
import Joi from 'joi';

export interface HunchConfig {
  baseUrl: string;
}

export const configSchema = Joi.object<HunchConfig, true>({
  baseUrl: venueUrl('https://www.playhunch.xyz'),
});
