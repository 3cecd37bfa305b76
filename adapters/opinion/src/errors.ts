import { mapVenueFailure } from '@predgate/core';
import type { ErrorCode, PredgateError, VenueFailure } from '@predgate/core';

/** What a refusal inside an envelope is read from (`api/envelope.ts` holds the whole envelope). */
export interface Refusal {
  errno?: number;
  code?: number;
  errmsg?: string | null;
  msg?: string | null;
}

/** The call an envelope refused: named in the error, with the codes its endpoint gives refusals. */
export interface RefusedCall {
  venue: string;
  method: string;
  url: URL;
  /** The code an unknown id becomes on a lookup endpoint. */
  notFound?: ErrorCode;
  /** The code of any other refusal (an order Opinion turns down is INVALID_ORDER); BAD_REQUEST otherwise. */
  refused?: ErrorCode;
}

/** An envelope's refusal (HTTP 200, non-zero errno) as a unified error. */
export function envelopeError(body: Refusal, source: RefusedCall): PredgateError {
  const venueMessage = body.errmsg || body.msg || '';
  const failure: VenueFailure = {
    venue: source.venue,
    method: source.method,
    origin: source.url.origin,
    path: source.url.pathname,
    status: 200,
    headers: {},
    body: null,
  };
  return mapVenueFailure(failure, {
    code: codeForMessage(venueMessage, source),
    message: `${source.venue}: ${venueMessage || `errno ${String(body.errno ?? body.code)}`}`,
    detail: { errno: body.errno ?? body.code, ...(venueMessage ? { venueMessage } : {}) },
  });
}

/** Opinion documents one errno (10000, a missing parameter); the rest is read from the message. */
function codeForMessage(message: string, source: RefusedCall): ErrorCode {
  if (/api ?key|unauthori[sz]ed|forbidden/i.test(message)) return 'AUTHENTICATION_ERROR';
  if (/too many|rate limit|frequen/i.test(message)) return 'RATE_LIMIT_EXCEEDED';
  if (/not (be )?found|not exist|no such/i.test(message)) return source.notFound ?? 'NOT_FOUND';
  if (source.refused === 'INVALID_ORDER' && /insufficient|not enough|allowance/i.test(message)) return 'INSUFFICIENT_FUNDS';
  return source.refused ?? 'BAD_REQUEST';
}

/** Answers outside 2xx: a refused key is an authentication failure whether Opinion says 401 or 403. */
export function mapError(failure: VenueFailure): PredgateError {
  const body = failure.body as { errmsg?: unknown } | null;
  const errmsg = typeof body?.errmsg === 'string' && body.errmsg ? body.errmsg : undefined;
  return mapVenueFailure(failure, {
    ...(failure.status === 403 ? { code: 'AUTHENTICATION_ERROR' as const } : {}),
    ...(errmsg ? { message: `${failure.venue}: ${errmsg}`, detail: { venueMessage: errmsg } } : {}),
  });
}
