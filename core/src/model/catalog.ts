import Joi from 'joi';

/**
 * Events, markets and outcomes: the catalog side of the unified model.
 * Field names follow SPEC.md; what SPEC.md leaves open (which fields are
 * required, the market status values) follows the venue fact sheets.
 */

export interface Outcome {
  outcomeId: string;
  label: string;
  /**
   * A fraction of one. Absent when the venue does not know it (a withheld
   * forecast, a market with no quote yet): an unknown price is never sent as 0.
   */
  price?: number;
  marketId?: string;
  /** Signed change of `price` over 24 hours, in the same unit. */
  priceChange24h?: number;
  metadata?: Record<string, unknown> | null;
}

/** Normalised market states; each venue maps its own vocabulary onto these. */
export const marketStatuses = ['active', 'inactive', 'closed', 'resolved', 'archived'] as const;
export type MarketStatus = (typeof marketStatuses)[number];

export interface Market {
  marketId: string;
  title: string;
  description: string;
  outcomes: Outcome[];
  volume24h: number;
  liquidity: number;
  url: string;
  eventId?: string;
  slug?: string;
  /** ISO 8601. */
  resolutionDate?: string;
  volume?: number;
  openInterest?: number;
  image?: string;
  category?: string;
  tags?: string[];
  tickSize?: number;
  status?: MarketStatus;
  contractAddress?: string;
  sourceMetadata?: Record<string, unknown>;
  sourceExchange?: string;
  /** Convenience references to members of `outcomes`, only on two-outcome markets. */
  yes?: Outcome;
  no?: Outcome;
  up?: Outcome;
  down?: Outcome;
}

export interface Event {
  id: string;
  title: string;
  description: string;
  slug: string;
  markets: Market[];
  volume24h: number;
  url: string;
  volume?: number;
  image?: string;
  category?: string;
  tags?: string[];
  sourceMetadata?: Record<string, unknown>;
  sourceExchange?: string;
}

export interface Series {
  id: string;
  title: string;
  ticker?: string;
  slug?: string;
  description?: string;
  /** `daily`, `weekly`, `15m`, ... as the venue says. */
  recurrence?: string;
  category?: string;
  tags?: string[];
  events?: Event[];
  url?: string;
  image?: string;
  sourceMetadata?: Record<string, unknown>;
  sourceExchange?: string;
}

export const fraction = Joi.number().min(0).max(1);
/**
 * Quantities in answers (volumes, sizes, balances) are doubles: a venue amount
 * past 2^53 arrives as the nearest double (see `toNumber`), not refused.
 */
export const amountValue = Joi.number().unsafe();
export const nonNegative = amountValue.min(0);
export const id = Joi.string().min(1);
export const isoDate = Joi.string().isoDate();
const freeForm = Joi.object().unknown(true);
const tags = Joi.array().items(Joi.string());

export const outcomeSchema = Joi.object<Outcome, true>({
  outcomeId: id.required(),
  label: Joi.string().allow('').required(),
  price: fraction,
  marketId: id,
  priceChange24h: Joi.number().min(-1).max(1),
  metadata: freeForm.allow(null),
});

export const marketSchema = Joi.object<Market, true>({
  marketId: id.required(),
  title: Joi.string().allow('').required(),
  description: Joi.string().allow('').required(),
  outcomes: Joi.array().items(outcomeSchema).required(),
  volume24h: nonNegative.required(),
  liquidity: nonNegative.required(),
  url: Joi.string().allow('').required(),
  eventId: id,
  slug: Joi.string().allow(''),
  resolutionDate: isoDate,
  volume: nonNegative,
  openInterest: nonNegative,
  image: Joi.string().allow(''),
  category: Joi.string().allow(''),
  tags,
  tickSize: Joi.number().greater(0).max(1),
  status: Joi.string().valid(...marketStatuses),
  contractAddress: Joi.string(),
  sourceMetadata: freeForm,
  sourceExchange: Joi.string(),
  yes: outcomeSchema,
  no: outcomeSchema,
  up: outcomeSchema,
  down: outcomeSchema,
});

export const eventSchema = Joi.object<Event, true>({
  id: id.required(),
  title: Joi.string().allow('').required(),
  description: Joi.string().allow('').required(),
  slug: Joi.string().allow('').required(),
  markets: Joi.array().items(marketSchema).required(),
  volume24h: nonNegative.required(),
  url: Joi.string().allow('').required(),
  volume: nonNegative,
  image: Joi.string().allow(''),
  category: Joi.string().allow(''),
  tags,
  sourceMetadata: freeForm,
  sourceExchange: Joi.string(),
});

export const seriesSchema = Joi.object<Series, true>({
  id: id.required(),
  title: Joi.string().allow('').required(),
  ticker: Joi.string(),
  slug: Joi.string(),
  description: Joi.string().allow(''),
  recurrence: Joi.string(),
  category: Joi.string().allow(''),
  tags,
  events: Joi.array().items(eventSchema),
  url: Joi.string().allow(''),
  image: Joi.string().allow(''),
  sourceMetadata: freeForm,
  sourceExchange: Joi.string(),
});
