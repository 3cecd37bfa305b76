import Joi from 'joi';
import { PredgateError } from '../errors.js';
import { compiledCheckOf, compiledCustomRule } from '../methods/compiled-check.js';
import { reportDrift } from './drift.js';

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

/**
 * Checks a venue body against the shape the adapter reads and returns it;
 * throws EXCHANGE_NOT_AVAILABLE naming the field. Lists declared with
 * `venueValue.items` are checked item by item: the body returned lacks the
 * items that do not fit, each reported as drift (see `withDriftSink`).
 */
export function checkPayload<T>(schema: Joi.Schema<T>, body: unknown, source: PayloadSource): T {
  // Most answers fit: a check compiled from the schema says so in a few µs; joi (and the item by item lists) reads the rest.
  if (compiledCheckOf(schema, 'payloads')?.(body)) return body as T;
  const context: ItemCheck = { source, leftOut: [], at: [] };
  const { error, value } = schema.validate(body, { ...validationOptions, context });
  if (error) throw driftError(source, error.details[0]!);
  // Reported only once the envelope is known good: a refused answer is one drift, not one per item.
  context.leftOut.forEach(reportDrift);
  return value as T;
}

/** What the item checks of one `checkPayload` share: the answer's source and the items they left out. */
interface ItemCheck {
  source: PayloadSource;
  leftOut: PredgateError[];
  /** Where in the body the item being checked sits (items nested in items are checked from their own root). */
  at: Array<string | number>;
}

function driftError(source: PayloadSource, issue: Joi.ValidationErrorItem, item?: string): PredgateError {
  const field = issue.path.length > 0 ? issue.path.join('.') : '(body)';
  const what = item === undefined ? 'in a shape' : `with an item (${item}) in a shape`;
  return new PredgateError('EXCHANGE_NOT_AVAILABLE', `${source.venue} answered ${source.endpoint} ${what} Predgate does not understand: ${issue.message}`, {
    exchange: source.venue,
    detail: { endpoint: source.endpoint, field, rule: issue.type, drift: true, ...(item === undefined ? {} : { item }) },
  });
}

/**
 * A list checked item by item: an item that does not fit `item` is left out
 * of the checked body and reported as drift naming its field and, with
 * `id`, the member identifying it (a dotted path, `order.oid`, for an id
 * nested in the item); the list itself must be a list.
 */
function itemsOf(item: Joi.Schema, options: { id?: string } = {}): Joi.ArraySchema {
  return Joi.array().custom((list: unknown[], helpers) => {
    const check = helpers.prefs.context as ItemCheck | undefined;
    if (check?.leftOut === undefined) throw new Error('venueValue.items() lists are checked through checkPayload');
    const kept: unknown[] = [];
    list.forEach((entry, index) => {
      const at = [...check.at, ...(helpers.state.path ?? []), index];
      const { error, value } = item.validate(entry, { ...validationOptions, context: { ...check, at } });
      if (!error) {
        kept.push(value);
        return;
      }
      const issue = error.details[0]!;
      const id = options.id === undefined ? undefined : text(memberAt(entry, options.id));
      check.leftOut.push(driftError(check.source, { ...issue, path: [...at, ...issue.path] }, id ?? `#${index}`));
    });
    return kept;
  }, 'items checked one by one');
}

function memberAt(entry: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | null | undefined)?.[key], entry);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/*
 * Numbers are checked by one function rather than joi alternatives: venue
 * books carry hundreds of levels, and this check sits on every live call.
 */
const numericText = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
/** A numeric value as `amount` takes it: a finite number, or numeric text. */
const isAmount = (value: unknown) => (typeof value === 'number' ? Number.isFinite(value) : typeof value === 'string' && numericText.test(value));
/** A numeric value as `numeric` takes it: a number within 2^53, or numeric text. */
const isNumeric = (value: unknown) =>
  typeof value === 'number' ? Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER : typeof value === 'string' && numericText.test(value);
compiledCustomRule('amount', isAmount);
compiledCustomRule('numeric', isNumeric);
const numericMessages = {
  'numeric.base': '{{#label}} must be a number or a numeric string',
  'numeric.unsafe': '{{#label}} is a bare number past 2^53, whose digits were lost when it was parsed (read the endpoint with exactIntegers)',
};

/**
 * Builders for the loose value shapes venues send, for use in payload schemas.
 * Each accepts exactly the forms venues are known to use, nothing wider.
 */
export const venueValue = {
  /**
   * A number whose digits matter (base units, quantities): a number, or a
   * numeric string (`".48"`, `"1e18"`, `"123456789012345678901"`). A bare
   * number past 2^53 lost digits when the JSON was parsed and is refused:
   * such endpoints are read with the HTTP client's `exactIntegers`, which
   * hands those numbers over as their digits.
   */
  numeric: () =>
    Joi.any()
      .custom((value: unknown, helpers) => {
        if (isNumeric(value)) return value;
        return helpers.error(typeof value === 'number' ? 'numeric.unsafe' : 'numeric.base');
      }, 'numeric')
      .messages(numericMessages),
  /**
   * A numeric value read as a number (a price, size or volume). Any magnitude
   * is accepted: past 2^53 it is read as the nearest double (`toNumber`), the
   * model's type, so a huge pool total is rounded in its last digits, never refused.
   */
  amount: () =>
    Joi.any()
      .custom((value: unknown, helpers) => (isAmount(value) ? value : helpers.error('numeric.base')), 'amount')
      .messages(numericMessages),
  /**
   * A list of items checked one by one: `venueValue.items(market, { id: 'ticker' })`.
   * One item that does not fit is left out and reported as drift (with its
   * `id` member and field); the rest of the list is read.
   */
  items: itemsOf,
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
