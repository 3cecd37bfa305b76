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

/**
 * Builders for the loose value shapes venues send, for use in payload schemas.
 * Each accepts exactly the forms venues are known to use, nothing wider.
 */
export const venueValue = {
  /** A number, or a numeric string (`".48"`, `"1e18"`, `"123456789012345678901"`). */
  numeric: () =>
    Joi.alternatives(
      Joi.number(),
      Joi.string()
        .trim()
        .pattern(/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/, 'numeric string'),
    ).messages({
      'alternatives.match': '{{#label}} must be a number or a numeric string',
    }),
  /** An id venues send as a string or an integer. */
  id: () => Joi.alternatives(Joi.string().min(1).max(512), Joi.number().integer()),
  /** A list sent as a JSON array or as JSON text of one (`"[\"Yes\",\"No\"]"`). */
  jsonList: () => Joi.alternatives(Joi.array(), Joi.string().max(1_000_000)),
  /** A time as ISO text, epoch seconds or epoch milliseconds. */
  time: () => Joi.alternatives(Joi.string().max(64), Joi.number()),
};
