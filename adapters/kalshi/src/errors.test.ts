import type { VenueFailure } from '@predgate/core';
import { describe, expect, test } from 'vitest';
import { mapError } from './errors.js';

const failure = (status: number, path: string, body: unknown, method = 'GET', headers: VenueFailure['headers'] = {}): VenueFailure => ({
  venue: 'kalshi',
  method,
  origin: 'https://external-api.kalshi.com',
  path: `/trade-api/v2${path}`,
  status,
  headers,
  body,
});
const venueError = (code: string, message: string, service = 'exchange') => ({ error: { code, message, service } });

describe('Kalshi error answers', () => {
  test.each([
    [404, '/events/KX-1', 'EVENT_NOT_FOUND', 'Event not found: KX-1'],
    [404, '/events/KX-1/metadata', 'EVENT_NOT_FOUND', 'Event not found: KX-1'],
    [404, '/markets/KX-1-A', 'MARKET_NOT_FOUND', 'Market not found: KX-1-A'],
    [404, '/markets/KX-1-A/orderbook', 'MARKET_NOT_FOUND', 'Market not found: KX-1-A'],
    [404, '/series/KX/markets/KX-1-A/candlesticks', 'MARKET_NOT_FOUND', 'Market not found: KX-1-A'],
    [404, '/portfolio/orders/abc', 'ORDER_NOT_FOUND', 'Order not found: abc'],
    [404, '/markets/trades', 'NOT_FOUND', 'kalshi: not found'],
    [404, '/series/KX', 'NOT_FOUND', 'kalshi: not found'],
  ])('%i on %s is %s', (status, path, code, message) => {
    const error = mapError(failure(status, path, venueError('not_found', 'not found')));
    expect(error).toMatchObject({ code, message, exchange: 'kalshi' });
    expect(error.detail).toMatchObject({ status, venueMessage: 'not found', venueCode: 'not_found' });
  });

  test.each([
    [400, 'POST', '/portfolio/orders', venueError('invalid_price', 'invalid price'), 'INVALID_ORDER'],
    [409, 'POST', '/portfolio/orders', venueError('post_only_cross', 'post only order would cross'), 'INVALID_ORDER'],
    [400, 'POST', '/portfolio/orders', venueError('insufficient_balance', 'insufficient balance'), 'INSUFFICIENT_FUNDS'],
    [400, 'GET', '/portfolio/balance', venueError('invalid_credentials', 'invalid credentials', 'auth'), 'AUTHENTICATION_ERROR'],
    [400, 'GET', '/markets', venueError('bad_request', 'invalid status filter'), 'BAD_REQUEST'],
    [401, 'GET', '/portfolio/balance', venueError('invalid_credentials', 'invalid credentials', 'auth'), 'AUTHENTICATION_ERROR'],
    [403, 'DELETE', '/portfolio/orders/abc', venueError('forbidden', 'forbidden'), 'PERMISSION_DENIED'],
    [500, 'GET', '/events', 'upstream error', 'EXCHANGE_NOT_AVAILABLE'],
    [503, 'POST', '/portfolio/orders', venueError('exchange_closed', 'exchange closed'), 'EXCHANGE_NOT_AVAILABLE'],
  ])('%i on %s %s is %s', (status, method, path, body, code) => {
    expect(mapError(failure(status, path, body, method)).code).toBe(code);
  });

  test('429: the string body is the message; Retry-After, when sent, is in detail', () => {
    const bare = mapError(failure(429, '/events', { error: 'too many requests' }));
    expect(bare).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retryable: true, message: 'kalshi: too many requests' });
    expect(bare.detail).not.toHaveProperty('retryAfter');
    const hinted = mapError(failure(429, '/events', venueError('rate_limited', 'slow down'), 'GET', { 'retry-after': '2' }));
    expect(hinted.detail).toMatchObject({ retryAfter: 2, venueMessage: 'slow down', venueCode: 'rate_limited' });
  });

  test('an empty or non-JSON body still maps by status', () => {
    expect(mapError(failure(502, '/events', null))).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', message: 'kalshi answered HTTP 502' });
    expect(mapError(failure(400, '/events', '<html>bad</html>')).detail).toMatchObject({ venueMessage: '<html>bad</html>' });
  });
});
