import Joi from 'joi';
import { PredgateError } from '../errors.js';

/**
 * Venue answers are checked before they are read. A schema here describes
 * only what the adapter reads (unknown members pass), so a venue adding a
 * field changes nothing, while a venue removing, renaming or retyping one the
 * adapter needs becomes an error naming the endpoint and the field, never a
 * silent 0, `NaN` or empty list.
 */

export interface PayloadSource {
  /** Venue id. */
  venue: string;
  /** The endpoint the body came from, as the adapter names it (`GET /events`). */
  endpoint: string;
}

const validationOptions: Joi.ValidationOptions = { abortEarly: true, allowUnknown: true, convert: false };

/** Checks a venue body against the shape the adapter reads; throws EXCHANGE_NOT_AVAILABLE naming the field. */
export function checkPayload<T>(schema: Joi.Schema<T>, body: unknown, source: PayloadSource): T {
  const { error } = schema.validate(body, validationOptions);
  if (!error) return body as T;
  const issue = error.details[0]!;
  const field = issue.path.length > 0 ? issue.path.join('.') : '(body)';
  throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${source.venue} answered ${source.endpoint} in a shape Predgate does not understand: ${issue.message}`, {
    exchange: source.venue,
    detail: { endpoint: source.endpoint, field, rule: issue.type, drift: true },
  });
}

/*
 * Numbers are checked by one function rather than joi alternatives: venue
 * books carry hundreds of levels, and this check sits on every live call.
 */
const numericText = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const numericMessages = {
  'numeric.base': '{{#label}} must be a number or a numeric string',
  'numeric.unsafe': '{{#label}} is too large for a number Predgate can carry exactly (at most 2^53)',
};

/**
 * Builders for the loose value shapes venues send, for use in payload schemas.
 * Each accepts exactly the forms venues are known to use, nothing wider.
 */
export const venueValue = {
  /** A number, or a numeric string (`".48"`, `"1e18"`, `"123456789012345678901"`). */
  numeric: () =>
    Joi.any()
      .custom((value: unknown, helpers) => {
        if (typeof value === 'number') return Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? value : helpers.error('numeric.unsafe');
        return typeof value === 'string' && numericText.test(value) ? value : helpers.error('numeric.base');
      }, 'numeric')
      .messages(numericMessages),
  /**
   * A numeric value read as a number (a price, size or volume): within ±2^53,
   * the range the unified model carries, so a value past it is refused naming
   * its field rather than passed on rounded.
   */
  amount: () =>
    Joi.any()
      .custom((value: unknown, helpers) => {
        if (typeof value !== 'number' && (typeof value !== 'string' || !numericText.test(value))) return helpers.error('numeric.base');
        return Math.abs(Number(value)) <= Number.MAX_SAFE_INTEGER ? value : helpers.error('numeric.unsafe');
      }, 'amount')
      .messages(numericMessages),
  /** An id venues send as a string or an integer. */
  id: () => Joi.alternatives(Joi.string().min(1).max(512), Joi.number().integer()),
  /**
   * A list sent as a JSON array or as JSON text of one (`"[\"Yes\",\"No\"]"`).
   * Text that is no JSON list, or that holds integers past 2^53 (token ids sent
   * bare, whose digits parsing would silently change), is refused.
   */
  jsonList: () =>
    Joi.alternatives(
      Joi.array(),
      Joi.string()
        .allow('')
        .max(1_000_000)
        .custom((value: string, helpers) => {
          if (value.trim() === '') return value;
          const parsed = parseJson(value);
          if (!Array.isArray(parsed)) return helpers.error('string.jsonList');
          if (parsed.some((item) => typeof item === 'number' && !Number.isSafeInteger(item) && Number.isInteger(item)))
            return helpers.error('string.unsafeNumber');
          return value;
        })
        .messages({
          'string.jsonList': '{{#label}} must be a list or the JSON text of one',
          'string.unsafeNumber': '{{#label}} holds a bare number too large to read exactly (send it as a string)',
        }),
    ).messages({ 'alternatives.types': '{{#label}} must be a list or the JSON text of one' }),
  /** A time as ISO text, epoch seconds or epoch milliseconds. */
  time: () => Joi.alternatives(Joi.string().max(64), Joi.number()),
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
