import { PredgateError, mapVenueFailure } from '@predgate/core';
import type { ErrorCode, VenueFailure } from '@predgate/core';
import { venueId } from './venue.js';

/** The venue's stable `error` codes, by the unified code they mean. */
const codes: Record<string, ErrorCode> = {
  market_not_found: 'MARKET_NOT_FOUND',
  invalid_request: 'BAD_REQUEST',
  invalid_wallet: 'VALIDATION_ERROR',
  invalid_side: 'INVALID_ORDER',
  size_below_min: 'INVALID_ORDER',
  size_above_simple_tier: 'INVALID_ORDER',
  quote_required: 'INVALID_ORDER',
  quote_expired: 'INVALID_ORDER',
  quote_mismatch: 'INVALID_ORDER',
  slippage_exceeded: 'INVALID_ORDER',
  pool_impact_exceeded: 'INVALID_ORDER',
  unsupported_market: 'INVALID_ORDER',
  market_closed: 'INVALID_ORDER',
  market_resolved: 'INVALID_ORDER',
  insufficient_balance: 'INSUFFICIENT_FUNDS',
  idem_conflict: 'BAD_REQUEST',
  payment_invalid: 'AUTHENTICATION_ERROR',
  rate_limited: 'RATE_LIMIT_EXCEEDED',
  trading_paused: 'EXCHANGE_NOT_AVAILABLE',
  platform_paused: 'EXCHANGE_NOT_AVAILABLE',
  internal_error: 'EXCHANGE_NOT_AVAILABLE',
};

/** A 402 from the trade endpoint is the payment challenge, carried to the bet flow in `detail.challenge`. */
export function mapError(failure: VenueFailure) {
  const body = (typeof failure.body === 'object' && failure.body !== null ? failure.body : {}) as Record<string, unknown>;
  if (failure.status === 402 && 'accepts' in body) {
    return new PredgateError('AUTHENTICATION_ERROR', `${venueId}: the bet was not paid`, { exchange: venueId, detail: { challenge: body } });
  }
  const venueCode = typeof body.error === 'string' ? body.error : undefined;
  const message = typeof body.message === 'string' ? body.message : undefined;
  // With the agent platform switched off every route is a 404 without the venue's error body.
  const code =
    (venueCode && codes[venueCode]) ?? (failure.status === 404 && failure.path.startsWith('/api/agent/v1/markets/') ? 'MARKET_NOT_FOUND' : undefined);
  return mapVenueFailure(failure, {
    ...(code ? { code } : {}),
    ...(message ? { message: `${venueId}: ${message}` } : {}),
    detail: { ...(venueCode ? { venueCode } : {}), ...(message ? { venueMessage: message } : {}) },
  });
}

export function invalidOrder(message: string) {
  return new PredgateError('INVALID_ORDER', `${venueId}: ${message}`, { exchange: venueId });
}

export function unreadable(field: string) {
  return new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venueId} answered in a shape Predgate does not understand: ${field} is missing or unreadable`, {
    exchange: venueId,
    detail: { field, drift: true },
  });
}
