import { mapVenueFailure } from '@predgate/core';
import type { ErrorCode, VenueFailure } from '@predgate/core';
import { venueId } from './venue.js';

/** Gemini's reasons (`reason`, or `error` in the prediction-markets form) to unified codes. */
const reasons: Array<[RegExp, ErrorCode]> = [
  [/terms/i, 'AUTHENTICATION_ERROR'],
  [/InvalidSignature|InvalidApiKey|MissingApikeyHeader|MissingRole|InvalidNonce|MissingPayloadHeader|MissingSignatureHeader/i, 'AUTHENTICATION_ERROR'],
  [/InsufficientFunds/i, 'INSUFFICIENT_FUNDS'],
  [/OrderNotFound/i, 'ORDER_NOT_FOUND'],
  [/InvalidQuantity|InvalidPrice|LimitPriceOffTick|MarketNotOpen|UnknownInstrument|InvalidSymbol|DuplicateOrder|InvalidInput/i, 'INVALID_ORDER'],
];

export function mapError(failure: VenueFailure) {
  const body = (typeof failure.body === 'object' && failure.body !== null ? failure.body : {}) as { reason?: unknown; error?: unknown; message?: unknown };
  const reason = [body.reason, body.error, body.message, typeof failure.body === 'string' ? failure.body : undefined]
    .filter((part) => typeof part === 'string')
    .join(' ');
  if (/terms/i.test(reason)) {
    // Accepting legal terms is the account holder's act, not the gateway's.
    return mapVenueFailure(failure, {
      code: 'AUTHENTICATION_ERROR',
      message: `${venueId}: this API key's account has not accepted Gemini's prediction-market terms; accept them on gemini.com (or POST /v1/prediction-markets/terms/accept) and retry`,
    });
  }
  if (failure.status === 404 && failure.path.startsWith('/v1/prediction-markets/events/')) return mapVenueFailure(failure, { code: 'EVENT_NOT_FOUND' });
  const code = failure.status === 429 ? undefined : reasons.find(([pattern]) => pattern.test(reason))?.[1];
  return code ? mapVenueFailure(failure, { code }) : undefined;
}
