import Joi from 'joi';
import { orderControls, type OrderControl } from './account.js';

/** What an adapter says of its venue; the gateway adds the rest of `describe`. */
/**
 * The categories every venue's events are filed under: one name means the
 * same on every venue (the catalog's and the Router's `category`).
 */
export const normalizedCategories = ['Politics', 'Sports', 'Crypto', 'Economics', 'Science', 'Culture', 'Other'] as const;
export type NormalizedCategory = (typeof normalizedCategories)[number];

/** A venue's own category words, lower case, per normalised category: Kalshi's `{ Science: ['climate and weather'] }`. */
export type CategoryWords = Partial<Record<Exclude<NormalizedCategory, 'Other'>, string[]>>;

export interface VenueProfile {
  displayName: string;
  /** Named base URLs (`gamma`, `clob`, `rest`, ...). */
  hosts: Record<string, string>;
  /** The budget the adapter keeps to, per venue; null when the venue sets none. */
  rateLimit: { requests: number; intervalMs: number } | null;
  /** Credential members authenticated methods need, and those they may use. */
  credentials: { required: string[]; optional: string[] };
  /**
   * Why the venue cannot do a method the adapter leaves out, one sentence per
   * method name; shown by `describe` and in the NOT_SUPPORTED answer, so a
   * caller learns the reason rather than only the refusal.
   */
  unsupported?: Record<string, string>;
  /** pmxt order controls the venue honours; an order using any other is refused by name. */
  orderControls?: OrderControl[];
  /**
   * The venue's category words and the normalised category each means; the
   * catalog files the venue's events by them. A normalised name needs no entry.
   */
  categoryWords?: CategoryWords;
}

/** `true`: implemented; `'emulated'`: built from other calls; `false`: not available. */
export type Capability = boolean | 'emulated';

export interface VenueDescription extends VenueProfile {
  id: string;
  /** npm package of the adapter and its version. */
  package: string;
  version: string;
  has: Record<string, Capability>;
}

const profileKeys = {
  displayName: Joi.string().required(),
  hosts: Joi.object().pattern(Joi.string(), Joi.string().uri()).required(),
  rateLimit: Joi.object({
    requests: Joi.number().integer().min(1).required(),
    intervalMs: Joi.number().integer().min(1).required(),
  })
    .allow(null)
    .required(),
  credentials: Joi.object({
    required: Joi.array().items(Joi.string()).required(),
    optional: Joi.array().items(Joi.string()).required(),
  }).required(),
  unsupported: Joi.object().pattern(Joi.string(), Joi.string().max(300)),
  orderControls: Joi.array()
    .items(Joi.string().valid(...orderControls))
    .unique(),
  categoryWords: Joi.object(
    Object.fromEntries(
      normalizedCategories
        .filter((category) => category !== 'Other')
        .map((category) => [category, Joi.array().items(Joi.string().lowercase().trim().min(1).max(100)).max(500).unique()]),
    ),
  ),
};

export const venueProfileSchema = Joi.object<VenueProfile, true>(profileKeys);

export const venueDescriptionSchema = Joi.object<VenueDescription, true>({
  ...profileKeys,
  id: Joi.string().required(),
  package: Joi.string().required(),
  version: Joi.string().required(),
  has: Joi.object()
    .pattern(Joi.string(), Joi.alternatives(Joi.boolean(), Joi.string().valid('emulated')))
    .required(),
});
