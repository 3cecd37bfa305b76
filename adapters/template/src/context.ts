import type { TemplateApi } from './api/client.js';

/** What every call of one adapter instance shares: reads and account calls take it first. */
export interface TemplateContext {
  api: TemplateApi;
}
