import type { VenueFailure } from '@predgate/core';
import { describe, expect, test } from 'vitest';
import { mapError, orderRejection, rejectionCode } from './errors.js';

const failure = (status: number, path: string, body: unknown, headers: VenueFailure['headers'] = {}): VenueFailure => ({
  venue: 'polymarket',
  method: 'GET',
  origin: 'https://clob.polymarket.com',
  path,
  status,
  headers,
  body,
});

describe('order rejection strings', () => {
  test.each([
    ['not enough balance / allowance', 'INSUFFICIENT_FUNDS'],
    ['INVALID_ORDER_NOT_ENOUGH_BALANCE', 'INSUFFICIENT_FUNDS'],
    ['Size (2) lower than the minimum: 5', 'ORDER_SIZE_TOO_SMALL'],
    ['INVALID_ORDER_MIN_SIZE', 'ORDER_SIZE_TOO_SMALL'],
    ['INVALID_ORDER_MIN_TICK_SIZE', 'INVALID_ORDER'],
    ['invalid tick size (0.0001), minimum for the market is 0.001', 'INVALID_ORDER'],
    ['INVALID_ORDER_DUPLICATED', 'INVALID_ORDER'],
    ['INVALID_ORDER_EXPIRATION', 'INVALID_ORDER'],
    ['INVALID_POST_ONLY_ORDER', 'INVALID_ORDER'],
    ['invalid post-only order: order crosses book', 'INVALID_ORDER'],
    ['FOK_ORDER_NOT_FILLED_ERROR', 'INVALID_ORDER'],
    ['order_version_mismatch', 'INVALID_ORDER'],
    ['MARKET_NOT_READY', 'INVALID_ORDER'],
    ['maker address not allowed, please use the deposit wallet flow', 'AUTHENTICATION_ERROR'],
    ['the order signer address has to be the address of the API KEY', 'AUTHENTICATION_ERROR'],
    ['address banned', 'PERMISSION_DENIED'],
    ['trading is currently disabled', 'EXCHANGE_NOT_AVAILABLE'],
    ['something new', 'INVALID_ORDER'],
  ])('%s is %s', (message, code) => {
    expect(rejectionCode(message)).toBe(code);
  });

  test('the minimum size goes to detail.min, the venue words to detail.venueMessage', () => {
    expect(orderRejection('Size (2) lower than the minimum: 5')).toMatchObject({
      code: 'ORDER_SIZE_TOO_SMALL',
      detail: { min: 5, venueMessage: 'Size (2) lower than the minimum: 5' },
    });
  });
});

describe('HTTP failures', () => {
  test.each([
    [404, '/events/123', 'EVENT_NOT_FOUND'],
    [404, '/markets/slug/nope', 'MARKET_NOT_FOUND'],
    [404, '/data/order/0x01', 'ORDER_NOT_FOUND'],
    [425, '/order', 'EXCHANGE_NOT_AVAILABLE'],
  ])('%i on %s is %s', (status, path, code) => {
    expect(mapError(failure(status, path, { error: 'x' }))).toMatchObject({ code, detail: { venueMessage: 'x' } });
  });

  test('a 400 about the API key outside placement is AUTHENTICATION_ERROR', () => {
    expect(mapError(failure(400, '/data/orders', { error: 'Invalid api key' }))).toMatchObject({ code: 'AUTHENTICATION_ERROR' });
  });

  test.each([
    [404, '/book'],
    [400, '/book'],
    [422, '/events'],
    [429, '/events'],
    [500, '/events'],
    [401, '/data/orders'],
  ])('%i on %s falls back to the status mapping', (status, path) => {
    expect(mapError(failure(status, path, { error: 'Invalid token id' }))).toBeUndefined();
  });
});
