import { describe, expect, test } from 'vitest';
import { PredgateError, errorCodes, isPredgateError, toErrorResponse } from './errors.js';
import type { ErrorCode } from './errors.js';

const specCodes = [
  'HOSTED_TRADING_ERROR',
  'INSUFFICIENT_ESCROW_BALANCE',
  'ORDER_SIZE_TOO_SMALL',
  'INVALID_API_KEY',
  'OUTCOME_NOT_FOUND',
  'CATALOG_UNAVAILABLE',
  'BUILT_ORDER_EXPIRED',
  'INVALID_SIGNATURE',
  'NO_LIQUIDITY',
  'MISSING_WALLET_ADDRESS',
  'BAD_REQUEST',
  'AUTHENTICATION_ERROR',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'ORDER_NOT_FOUND',
  'MARKET_NOT_FOUND',
  'EVENT_NOT_FOUND',
  'RATE_LIMIT_EXCEEDED',
  'INVALID_ORDER',
  'INSUFFICIENT_FUNDS',
  'VALIDATION_ERROR',
  'NETWORK_ERROR',
  'EXCHANGE_NOT_AVAILABLE',
  'NOT_SUPPORTED',
];

const expectedStatus: Record<string, number> = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  INVALID_ORDER: 400,
  INSUFFICIENT_FUNDS: 400,
  MISSING_WALLET_ADDRESS: 400,
  ORDER_SIZE_TOO_SMALL: 400,
  INSUFFICIENT_ESCROW_BALANCE: 400,
  AUTHENTICATION_ERROR: 401,
  INVALID_API_KEY: 401,
  INVALID_SIGNATURE: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ORDER_NOT_FOUND: 404,
  MARKET_NOT_FOUND: 404,
  EVENT_NOT_FOUND: 404,
  OUTCOME_NOT_FOUND: 404,
  BUILT_ORDER_EXPIRED: 410,
  NO_LIQUIDITY: 422,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  NOT_SUPPORTED: 501,
  HOSTED_TRADING_ERROR: 502,
  NETWORK_ERROR: 503,
  EXCHANGE_NOT_AVAILABLE: 503,
  CATALOG_UNAVAILABLE: 503,
};
const retryable = new Set(['RATE_LIMIT_EXCEEDED', 'NETWORK_ERROR', 'EXCHANGE_NOT_AVAILABLE', 'CATALOG_UNAVAILABLE']);

describe('error codes', () => {
  test('every code of the specification is defined', () => {
    expect(Object.keys(errorCodes)).toEqual(expect.arrayContaining(specCodes));
  });

  test.each(Object.keys(errorCodes) as ErrorCode[])('%s has its status and retryability in the envelope', (code) => {
    const error = new PredgateError(code, `it went wrong: ${code}`, { exchange: 'kalshi', detail: { hint: 1 } });
    const response = toErrorResponse(error);
    expect(response.status).toBe(expectedStatus[code]);
    expect(response.body).toEqual({
      success: false,
      error: { code, message: `it went wrong: ${code}`, retryable: retryable.has(code), exchange: 'kalshi', detail: { hint: 1 } },
    });
  });
});

describe('toErrorResponse', () => {
  test('fills in the exchange of the call when the error does not name one', () => {
    const response = toErrorResponse(new PredgateError('MARKET_NOT_FOUND'), { exchange: 'mock' });
    expect(response.body.error).toMatchObject({ code: 'MARKET_NOT_FOUND', message: 'Market not found', exchange: 'mock', detail: null });
  });

  test('keeps an overridden status and retryability', () => {
    const response = toErrorResponse(new PredgateError('BAD_REQUEST', 'use POST', { status: 405, retryable: true }));
    expect(response.status).toBe(405);
    expect(response.body.error.retryable).toBe(true);
  });

  test('recognises an error made by another copy of core by its brand', () => {
    const foreign = Object.assign(new Error('from a newer core'), {
      code: 'SOMETHING_NEW',
      status: 418,
      retryable: true,
      exchange: 'x',
      detail: { a: 1 },
      [Symbol.for('predgate.error')]: true,
    });
    expect(isPredgateError(foreign)).toBe(true);
    expect(foreign instanceof PredgateError).toBe(true);
    expect(toErrorResponse(foreign)).toEqual({
      status: 418,
      body: { success: false, error: { code: 'SOMETHING_NEW', message: 'from a newer core', retryable: true, exchange: 'x', detail: { a: 1 } } },
    });
  });

  test.each([
    ['an Error', new TypeError("Cannot read properties of undefined (reading 'secret')")],
    ['a string', 'boom'],
    ['null', null],
    ['an object with a code but no brand', { code: 'MARKET_NOT_FOUND', message: 'spoofed' }],
  ])('turns %s into a generic INTERNAL_ERROR without internals', (_title, thrown) => {
    const response = toErrorResponse(thrown, { requestId: 'req-7', exchange: 'mock' });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      success: false,
      error: { code: 'INTERNAL_ERROR', message: 'Internal error (request req-7)', retryable: false, exchange: 'mock', detail: { requestId: 'req-7' } },
    });
  });

  test('errors serialise without a stack', () => {
    const json = JSON.stringify(new PredgateError('NETWORK_ERROR', 'unreachable'));
    expect(json).not.toContain('stack');
    expect(JSON.parse(json)).toEqual({ code: 'NETWORK_ERROR', message: 'unreachable', retryable: true, exchange: null, detail: null });
  });
});
