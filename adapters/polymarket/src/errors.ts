import { PredgateError, mapVenueFailure, venueMessageOf } from '@predgate/core';
import type { ErrorCode, VenueFailure } from '@predgate/core';
import { venueId } from './venue.js';

/**
 * How Polymarket's error answers read in unified codes. Order rejections come
 * two ways: an HTTP 400 `{error}` or a 200 `{success:false, errorMsg}`; both
 * go through `rejectionCode`, so the same venue string always gives the same code.
 */

/** Rejection strings (and the documented `errorMsg` constants) to codes, first match wins. */
const rejections: Array<[RegExp, ErrorCode]> = [
  [/not enough balance|allowance|NOT_ENOUGH_BALANCE|insufficient/i, 'INSUFFICIENT_FUNDS'],
  [/lower than the minimum|INVALID_ORDER_MIN_SIZE|minimum (order )?size/i, 'ORDER_SIZE_TOO_SMALL'],
  [/address banned|closed only mode|closed_only|geoblock|restricted region/i, 'PERMISSION_DENIED'],
  [/trading is currently disabled|trading paused|cancel[- ]only/i, 'EXCHANGE_NOT_AVAILABLE'],
  [/api ?key|L1 Request headers|L2|invalid signature|signature type|maker address not allowed|deposit wallet|unauthori[sz]ed/i, 'AUTHENTICATION_ERROR'],
  [
    /tick size|INVALID_ORDER|duplicat|expiration|post[- _]?only|crosses|FOK|fully filled|order_version_mismatch|MARKET_NOT_READY|EXECUTION_ERROR|DELAYING_ORDER_ERROR|invalid (price|amount)/i,
    'INVALID_ORDER',
  ],
];

/** Unified code of an order rejection message; INVALID_ORDER when nothing more precise applies. */
export function rejectionCode(message: string): ErrorCode {
  return rejections.find(([pattern]) => pattern.test(message))?.[1] ?? 'INVALID_ORDER';
}

/** The minimum size the venue names in a "size lower than the minimum: 5" style message. */
function minimumIn(message: string): number | undefined {
  const match = /minimum[^\d]*(\d+(?:\.\d+)?)/i.exec(message);
  return match ? Number(match[1]) : undefined;
}

/** A PredgateError for a rejected order, keeping the venue's words in `detail.venueMessage`. */
export function orderRejection(venueMessage: string, extra: Record<string, unknown> = {}): PredgateError {
  const code = rejectionCode(venueMessage);
  const detail: Record<string, unknown> = { ...extra, venueMessage };
  const min = code === 'ORDER_SIZE_TOO_SMALL' ? minimumIn(venueMessage) : undefined;
  if (min !== undefined) detail.min = min;
  return new PredgateError(code, `${venueId}: ${venueMessage}`, { exchange: venueId, detail });
}

/** 404s name what was missing by the path that answered them. */
const notFoundByPath: Array<[RegExp, ErrorCode]> = [
  [/^\/events\//, 'EVENT_NOT_FOUND'],
  [/^\/markets\//, 'MARKET_NOT_FOUND'],
  [/^\/data\/order\//, 'ORDER_NOT_FOUND'],
];

/** The path where a 400 is about an order the caller sent. */
const orderPath = '/order';

/**
 * The `mapError` of the venue HTTP client. Returns undefined where core's
 * status mapping already says it right (401, 403, 429 with Retry-After, 5xx).
 */
export function mapError(failure: VenueFailure): PredgateError | undefined {
  const venueMessage = venueMessageOf(failure.body);
  if (failure.status === 425) {
    // The matching engine is restarting: the same request succeeds a little later.
    return mapVenueFailure(failure, { code: 'EXCHANGE_NOT_AVAILABLE', message: `${venueId}: ${venueMessage ?? 'the matching engine is restarting'}` });
  }
  if (failure.status === 422 && venueMessage && /offset/i.test(venueMessage)) {
    // Gamma's offset listings stop near 2,000 items; the keyset listing goes on.
    return mapVenueFailure(failure, {
      code: 'VALIDATION_ERROR',
      message: `${venueId} serves listings by offset only to a depth of about 2,000: page deeper with fetchEventsPaginated and its cursor`,
    });
  }
  if (failure.status === 404) {
    const code = notFoundByPath.find(([pattern]) => pattern.test(failure.path))?.[1];
    return code ? mapVenueFailure(failure, { code }) : undefined;
  }
  if (failure.status === 400 && venueMessage) {
    if (failure.path === orderPath) return orderRejection(venueMessage, { status: failure.status, method: failure.method, path: failure.path });
    // Outside order placement a 400 is a bad request, unless the words say it is about the account.
    const code = rejectionCode(venueMessage);
    if (code === 'AUTHENTICATION_ERROR' || code === 'PERMISSION_DENIED') return mapVenueFailure(failure, { code });
  }
  return undefined;
}
