import { checkPayload } from '@predgate/core';
import Joi from 'joi';
import { envelopeError } from '../errors.js';
import type { RefusedCall, Refusal } from '../errors.js';

/**
 * Opinion answers HTTP 200 with an envelope, and application errors come back
 * the same way: `{"errno": 10000, "errmsg": "token_id is required", "result": null}`.
 * Live answers name the members `errno`/`errmsg`, the published docs
 * `code`/`msg`; both are read. Only `errno` (or `code`) 0 is a success.
 */

export interface EnvelopeSource extends RefusedCall {
  /** `GET /market/{marketId}`: named in errors. */
  endpoint: string;
}

export interface Envelope extends Refusal {
  result?: unknown;
}

const envelope = Joi.object({
  errno: Joi.number().integer(),
  code: Joi.number().integer(),
  errmsg: Joi.string().allow('', null),
  msg: Joi.string().allow('', null),
  result: Joi.any(),
}).or('errno', 'code');

/** The envelope's `result`, checked against `schema`, or the envelope's error as a unified one. */
export function openEnvelope<T>(body: unknown, schema: Joi.Schema, source: EnvelopeSource): T {
  const checked = checkPayload<Envelope>(envelope, body, { venue: source.venue, endpoint: source.endpoint });
  const status = checked.errno ?? checked.code;
  if (status !== 0) throw envelopeError(checked, source);
  // Checked inside the envelope so a drifted field is named from the body's root (`result.list.0.marketId`).
  return checkPayload<{ result: T }>(Joi.object({ result: schema.required() }), checked, { venue: source.venue, endpoint: source.endpoint }).result;
}
