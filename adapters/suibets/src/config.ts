import { venueUrl } from '@predgate/core';
import Joi from 'joi';

export interface SuibetsConfig {
  /** The site's origin; the P2P API lives under `/api/p2p`. */
  baseUrl: string;
}

export const configSchema = Joi.object<SuibetsConfig, true>({
  baseUrl: venueUrl('https://www.suibets.com'),
});
