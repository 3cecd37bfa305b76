import { PredgateError } from '@predgate/core';
import type { ErrorCode } from '@predgate/core';
import { venueId } from '../normalize.js';

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

export function rejectionCode(message: string): ErrorCode | undefined {
  return rejections.find(([pattern]) => pattern.test(message))?.[1];
}

/** A refused placement or cancel: INVALID_ORDER unless the words say more. */
export function orderRejection(venueMessage: string, extra: Record<string, unknown> = {}): PredgateError {
  return new PredgateError(rejectionCode(venueMessage) ?? 'INVALID_ORDER', `${venueId}: ${venueMessage}`, {
    exchange: venueId,
    detail: { ...extra, venueMessage },
  });
}
