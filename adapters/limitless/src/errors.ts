import { mapVenueFailure, venueMessageOf } from '@predgate/core';
import type { ErrorCode, VenueFailure } from '@predgate/core';
import { venueId } from './venue.js';

/** Order rejections by the wording of the venue's message. */
const rejections: Array<[RegExp, ErrorCode]> = [
  [/api key|proxy|signature type/i, 'AUTHENTICATION_ERROR'],
  [/insufficient|allowance|balance/i, 'INSUFFICIENT_FUNDS'],
  [/tick size|price|size|post.?only|cross/i, 'INVALID_ORDER'],
];

/** NestJS bodies: `message` (a string, or an array of them on validation errors), then `error`, then `errorMsg`. */
function messageOf(body: unknown): string {
  const { message, errorMsg } = (typeof body === 'object' && body !== null ? body : {}) as { message?: unknown; errorMsg?: unknown };
  if (Array.isArray(message)) return message.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join('; ');
  if (typeof message === 'string') return message;
  return typeof errorMsg === 'string' ? errorMsg : (venueMessageOf(body) ?? '');
}

export function mapError(failure: VenueFailure) {
  const message = messageOf(failure.body);
  if (failure.status === 404 && failure.path.startsWith('/markets/')) {
    return mapVenueFailure(failure, { code: /orderbook$/.test(failure.path) ? 'NOT_FOUND' : 'MARKET_NOT_FOUND' });
  }
  // A cancel of an order that is gone (filled, cancelled, never there, or another account's).
  if (failure.method === 'DELETE' && failure.path.startsWith('/orders/') && (failure.status === 404 || /not found|does not exist/i.test(message))) {
    return mapVenueFailure(failure, { code: 'ORDER_NOT_FOUND', message: `${venueId}: ${(message || 'order not found').slice(0, 300)}` });
  }
  if (failure.method === 'DELETE' && failure.path.startsWith('/orders/') && failure.status === 400) {
    return mapVenueFailure(failure, { code: 'INVALID_ORDER', message: `${venueId}: ${(message || 'the order cannot be cancelled').slice(0, 300)}` });
  }
  if (failure.status === 400 || failure.status === 409 || failure.status === 425) {
    const code = rejections.find(([pattern]) => pattern.test(message))?.[1] ?? (failure.status === 400 ? undefined : 'INVALID_ORDER');
    return code
      ? mapVenueFailure(failure, { code, message: `${venueId}: ${message.slice(0, 300)}`, detail: { venueMessage: message.slice(0, 300) } })
      : undefined;
  }
  return undefined;
}
