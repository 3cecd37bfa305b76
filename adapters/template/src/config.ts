import { venueUrl } from '@predgate/core';
import Joi from 'joi';

/** The adapter's section of the deployment manifest. */
export interface TemplateConfig {
  /** Base URL of the venue's REST API; the manifest can point it elsewhere (a staging host, a recorder). */
  baseUrl: string;
}

export const configSchema = Joi.object<TemplateConfig, true>({
  baseUrl: venueUrl('https://api.example-venue.com'),
});
