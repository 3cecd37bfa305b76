import { describe, expect, test } from 'vitest';
import { mapVenueFailure } from './failures.js';
import type { VenueFailure } from './failures.js';

const failure = (status: number, body: unknown, headers: VenueFailure['headers'] = {}): VenueFailure => ({
  venue: 'acme',
  method: 'GET',
  origin: 'https://acme.test',
  path: '/markets/X',
  status,
  headers,
  body,
});

describe('mapVenueFailure', () => {
  test('reads the status and the venue message', () => {
    const error = mapVenueFailure(failure(404, { error: { message: 'no such market' } }));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toBe('acme: no such market');
    expect(error.detail).toEqual({ status: 404, method: 'GET', path: '/markets/X', venueMessage: 'no such market' });
  });

  test("an adapter's reading sets the code, message and extra detail, and Retry-After follows the code it chose", () => {
    const error = mapVenueFailure(failure(400, { error: 'slow down' }, { 'retry-after': '3' }), {
      code: 'RATE_LIMIT_EXCEEDED',
      message: 'acme is throttling this account',
      detail: { venueCode: 'too_many_requests' },
    });
    expect(error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('acme is throttling this account');
    expect(error.detail).toEqual({ status: 400, method: 'GET', path: '/markets/X', venueMessage: 'slow down', venueCode: 'too_many_requests', retryAfter: 3 });
  });
});
