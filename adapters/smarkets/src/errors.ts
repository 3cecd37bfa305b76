import { mapVenueFailure } from '@predgate/core';
import type { ErrorCode, VenueFailure } from '@predgate/core';
import { venueId } from './venue.js';

/** Smarkets' `error_type` values that mean one unified code each. */
const exactErrorTypes: Record<string, ErrorCode> = {
  RATE_LIMIT_EXCEEDED: 'RATE_LIMIT_EXCEEDED',
  EVENTS_API_RATE_LIMIT: 'RATE_LIMIT_EXCEEDED',
  INVALID_CREDENTIALS: 'AUTHENTICATION_ERROR',
  PASSWORD_RESET_NEEDED: 'AUTHENTICATION_ERROR',
  AUTH_REQUIRED: 'AUTHENTICATION_ERROR',
  ORDER_CANCEL_REJECTED_NOT_FOUND: 'ORDER_NOT_FOUND',
  ORDER_REJECTED_MARKET_NOT_FOUND: 'MARKET_NOT_FOUND',
  ORDER_REJECTED_CONTRACT_NOT_FOUND: 'MARKET_NOT_FOUND',
};

/** Families of `error_type`, tried in order after the exact ones: any shortfall of funds, then any other order rejection. */
const broadErrorTypes: Array<[RegExp, ErrorCode]> = [
  [/INSUFFICIENT_FUNDS/, 'INSUFFICIENT_FUNDS'],
  [/^ORDER_/, 'INVALID_ORDER'],
];

/** Smarkets' `{error_type, data}` bodies to unified codes; a 403 on orders says why accounts are refused. */
export function mapError(failure: VenueFailure) {
  const errorType = String((failure.body as { error_type?: unknown } | null)?.error_type ?? '');
  if (failure.status === 403 && failure.path === '/v3/orders/') {
    return mapVenueFailure(failure, {
      code: 'PERMISSION_DENIED',
      message: `${venueId}: Smarkets accepts orders over its API only from approved API users (and is not onboarding new ones); this account is not one. Its prices are also delayed.`,
    });
  }
  if (failure.status === 403 || failure.status === 451) return mapVenueFailure(failure, { code: 'PERMISSION_DENIED' });
  const code = exactErrorTypes[errorType] ?? broadErrorTypes.find(([pattern]) => pattern.test(errorType))?.[1];
  return code ? mapVenueFailure(failure, { code }) : undefined;
}
