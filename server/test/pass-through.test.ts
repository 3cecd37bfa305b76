import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testApp, thirdPartyProject } from './helpers.js';
import type { TestApp } from './helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.stop());

const envelopeKeys = ['code', 'message', 'retryable', 'exchange', 'detail'];

describe('successful calls', () => {
  test('GET with a query string answers in the envelope', async () => {
    const response = await app.call({ url: '/api/mock/fetchEvents?limit=2' });
    expect(response.statusCode).toBe(200);
    const body = response.result as { success: boolean; data: unknown[] };
    expect(body.success).toBe(true);
    expect(body.data).toHaveLength(2);
  });

  test('describe gives the capability map, credentials, package, version and rate limit', async () => {
    const { data } = (await app.call({ url: '/api/mock/describe' })).result as { data: Record<string, unknown> };
    expect(data).toMatchObject({
      id: 'mock',
      package: '@predgate/adapter-mock',
      version: '0.1.0',
      rateLimit: null,
      credentials: { required: [], optional: ['apiKey'] },
      has: { fetchEvents: true, fetchEvent: 'emulated', createOrder: true, describe: true },
    });
  });

  test('a base URL with a trailing slash (`//api/...`) still reaches the method', async () => {
    expect((await app.call({ url: '//api/mock/fetchEvents?limit=1' })).statusCode).toBe(200);
  });
});

describe('error paths answer the object envelope with the right status', () => {
  const cases: Array<[string, Parameters<TestApp['call']>[0], number, string, string | null]> = [
    ['an unknown exchange', { url: '/api/nowhere/fetchEvents' }, 404, 'NOT_FOUND', null],
    ['an unknown method', { url: '/api/mock/fetchNothing' }, 404, 'NOT_FOUND', 'mock'],
    ['a POST-only method by GET', { url: '/api/mock/createOrder' }, 405, 'BAD_REQUEST', 'mock'],
    ['an invalid argument', { url: '/api/mock/fetchEvents?limit=0' }, 400, 'VALIDATION_ERROR', 'mock'],
    ['an unknown argument', { url: '/api/mock/fetchOrder?orderId=1&verbose=1' }, 400, 'VALIDATION_ERROR', 'mock'],
    ['a missing required argument', { method: 'POST', url: '/api/mock/fetchOHLCV', payload: { args: [] } }, 400, 'VALIDATION_ERROR', 'mock'],
    [
      'unparsable JSON',
      { method: 'POST', url: '/api/mock/fetchEvents', payload: '{"args": [', headers: { 'content-type': 'application/json' } },
      400,
      'BAD_REQUEST',
      null,
    ],
    [
      'a body that is not JSON',
      { method: 'POST', url: '/api/mock/fetchEvents', payload: 'limit=2', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      415,
      'BAD_REQUEST',
      null,
    ],
    ['a venue failure (an unknown order)', { url: '/api/mock/fetchOrder?orderId=none' }, 404, 'ORDER_NOT_FOUND', 'mock'],
    ['an unknown route', { url: '/v9/nothing' }, 404, 'NOT_FOUND', null],
  ];

  test.each(cases)('%s', async (_title, request, status, code, exchange) => {
    const response = await app.call(request);
    expect(response.statusCode).toBe(status);
    const body = response.result as { success: boolean; error: Record<string, unknown> };
    expect(body.success).toBe(false);
    expect(Object.keys(body.error).sort()).toEqual([...envelopeKeys].sort());
    expect(body.error.code).toBe(code);
    expect(typeof body.error.message).toBe('string');
    expect(body.error.exchange).toBe(exchange);
    expect(response.payload).not.toContain('    at ');
  });

  test('a venue failure keeps its code: a resolved market has no book', async () => {
    const { data } = (await app.call({ url: '/api/mock/fetchMarkets?status=closed&limit=1' })).result as {
      data: Array<{ outcomes: Array<{ outcomeId: string }> }>;
    };
    const response = await app.call({ url: `/api/mock/fetchOrderBook?outcomeId=${data[0]!.outcomes[0]!.outcomeId}` });
    expect(response.statusCode).toBe(404);
    expect(response.result).toMatchObject({
      success: false,
      error: { code: 'NOT_FOUND', exchange: 'mock', message: expect.stringContaining('No orderbook exists') },
    });
  });

  test('the wrong-verb answer says to POST and sets Allow', async () => {
    const response = await app.call({ url: '/api/mock/cancelOrder?orderId=1' });
    expect(response.headers.allow).toBe('POST');
    expect((response.result as { error: { message: string } }).error.message).toContain('POST /api/mock/cancelOrder');
  });

  test('validation errors name the argument and the rule', async () => {
    const { error } = (await app.call({ url: '/api/mock/fetchEvents?status=open' })).result as { error: { message: string; detail: Record<string, unknown> } };
    expect(error.message).toContain('"params.status" must be one of');
    expect(error.detail).toMatchObject({ argument: 'params', path: 'params.status', rule: 'any.only' });
  });
});

describe('a method the venue does not implement, and a venue that fails unexpectedly', () => {
  let flaky: TestApp;
  beforeAll(async () => {
    flaky = await testApp({
      manifest: { venues: [{ id: 'flaky', package: 'predgate-adapter-flaky', version: '1.0.0', config: {} }] },
      searchRoots: [thirdPartyProject],
    });
  });
  afterAll(() => flaky?.stop());

  test('NOT_SUPPORTED, 501', async () => {
    const response = await flaky.call({ url: '/api/flaky/fetchOHLCV?outcomeId=x&resolution=1h' });
    expect(response.statusCode).toBe(501);
    expect(response.result).toMatchObject({ success: false, error: { code: 'NOT_SUPPORTED', exchange: 'flaky' } });
  });

  test('an unexpected error is a generic 500 with the request id, logged with its stack', async () => {
    const response = await flaky.call({ url: '/api/flaky/fetchEvents' });
    expect(response.statusCode).toBe(500);
    const { error } = response.result as { error: { code: string; message: string; detail: { requestId: string } } };
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.message).toBe(`Internal error (request ${error.detail.requestId})`);
    expect(response.payload).not.toContain('secretInternals');
    const logged = flaky.logs.find((line) => line.includes('unexpected error'));
    expect(logged).toContain('secretInternals');
    expect(logged).toContain(error.detail.requestId);
  });

  test("a venue's unified error from another copy of core keeps its code and Retry-After", async () => {
    const response = await flaky.call({ url: '/api/flaky/fetchBalance' });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('7');
    expect(response.result).toMatchObject({ error: { code: 'RATE_LIMIT_EXCEEDED', retryable: true, exchange: 'flaky' } });
  });
});
