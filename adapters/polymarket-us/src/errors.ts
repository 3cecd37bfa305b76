import { mapVenueFailure, venueMessageOf } from '@predgate/core';
import type { ErrorCode, VenueFailure } from '@predgate/core';

/** A 404's meaning by the path that answered it, tried in order; any other path looked up a market. */
const notFoundByPath: Array<[string, ErrorCode]> = [
  ['/v1/events', 'EVENT_NOT_FOUND'],
  ['/v1/order/', 'ORDER_NOT_FOUND'],
];

/** The venue's 400s carry only a message: its wording says which refusal it is. */
const rejections: Array<[RegExp, ErrorCode]> = [
  [/insufficient|buying power|balance/i, 'INSUFFICIENT_FUNDS'],
  [/invalid|price|quantity|tick|self.?match|closed|expired|halted|suspended/i, 'INVALID_ORDER'],
];

export function mapError(failure: VenueFailure) {
  if (failure.status === 404) {
    const code = notFoundByPath.find(([prefix]) => failure.path.startsWith(prefix))?.[1] ?? 'MARKET_NOT_FOUND';
    return mapVenueFailure(failure, { code });
  }
  if (failure.status === 400) {
    const code = rejections.find(([pattern]) => pattern.test(venueMessageOf(failure.body) ?? ''))?.[1];
    return code ? mapVenueFailure(failure, { code }) : undefined;
  }
  return undefined;
}
