import { PredgateError, mapVenueFailure, venueMessageOf } from '@predgate/core';
import type { ErrorCode, VenueFailure } from '@predgate/core';
import { venueId } from './venue.js';

/**
 * Probable's refusals in unified codes: an HTTP 4xx with
 * `{error: {code: "PAS-…", message}}`, or a placement answered `{code, msg}`
 * (even with HTTP 200). First match wins; the venue's words stay in `detail`.
 */
const rejections: Array<[RegExp, ErrorCode]> = [
  [/PAS-4008|api ?key|invalid signature|L1 auth|L2 auth|unauthori[sz]ed|signature/i, 'AUTHENTICATION_ERROR'],
  [/insufficient|not enough|balance|allowance/i, 'INSUFFICIENT_FUNDS'],
  [/PAS-4206|no liquidity/i, 'NO_LIQUIDITY'],
  [/invalid order|tick size|price must|size must|amount must|min(imum)? (order )?(size|notional|amount)/i, 'INVALID_ORDER'],
];

function rejectionCode(message: string): ErrorCode | undefined {
  return rejections.find(([pattern]) => pattern.test(message))?.[1];
}

/** A refused placement or cancel: INVALID_ORDER unless the words say more. */
export function orderRejection(venueMessage: string, extra: Record<string, unknown> = {}): PredgateError {
  return new PredgateError(rejectionCode(venueMessage) ?? 'INVALID_ORDER', `${venueId}: ${venueMessage}`, {
    exchange: venueId,
    detail: { ...extra, venueMessage },
  });
}

/**
 * The market API reports "not found" as 404, 400 or 500 with those words; the
 * order-book API's private calls answer `{error: {code: "PAS-…", message}}`.
 */
export function mapError(failure: VenueFailure) {
  const message = venueMessageOf(failure.body) ?? '';
  const venueCode = venueErrorCode(failure.body);
  const orderPath = /\/orders?\/\d+\/\d+/.test(failure.path);
  // A 404 is about what was asked for ("api key not found" included), never about the caller's key.
  if (failure.status >= 400 && failure.status < 500 && failure.status !== 404 && failure.status !== 429) {
    const code = rejectionCode(`${venueCode ?? ''} ${message}`);
    if (code === 'AUTHENTICATION_ERROR') return mapVenueFailure(failure, { code, ...(venueCode ? { detail: { venueCode } } : {}) });
    if (failure.method === 'POST' && /\/order\/\d+$/.test(failure.path) && failure.status !== 401 && failure.status !== 403) {
      return mapVenueFailure(failure, { code: code ?? 'INVALID_ORDER', ...(venueCode ? { detail: { venueCode } } : {}) });
    }
    if (code === 'INSUFFICIENT_FUNDS') return mapVenueFailure(failure, { code });
  }
  if (failure.status === 404 || (/not found/i.test(message) && (failure.status === 400 || failure.status === 500))) {
    return mapVenueFailure(failure, {
      code: orderPath
        ? 'ORDER_NOT_FOUND'
        : failure.path.includes('/events')
          ? 'EVENT_NOT_FOUND'
          : failure.path.includes('/markets')
            ? 'MARKET_NOT_FOUND'
            : 'NOT_FOUND',
    });
  }
  return undefined;
}

/** The order-book API's own error code (`PAS-4008`), where it sends one. */
function venueErrorCode(body: unknown): string | undefined {
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code.slice(0, 40) : undefined;
}
