import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { guardProcess } from '../src/process-guard.js';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

let app: TestApp;
let port: number;
beforeAll(async () => {
  app = await testApp({ config: { port: 0, host: '127.0.0.1' } });
  await app.server.start();
  port = app.server.info.port as number;
});
afterAll(() => app.stop());

/** Sends raw bytes on a fresh connection and collects what comes back until the server closes it. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer')));
    socket.write(request);
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { success: boolean; error: { code: string } };

describe('requests the router or the parser refuse never end the process', () => {
  test.each(['GET', 'POST', 'OPTIONS', 'DELETE'])('%s * HTTP/1.1 is refused and the gateway keeps serving', async (verb) => {
    const answer = await raw(`${verb} * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 4\d\d/);
    const health = await raw('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(health).toMatch(/^HTTP\/1\.1 200/);
  });

  test('headers over the limit get 431 in the envelope, and the API key in them is never logged', async () => {
    const answer = await raw(`GET /api/mock/fetchEvents HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nX-Padding: ${'a'.repeat(40_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431/);
    expect(bodyOf(answer)).toMatchObject({ success: false, error: { code: 'BAD_REQUEST' } });
    expect(app.logs.join('\n')).not.toContain(apiKey);
    expect(app.logs.join('\n')).toContain('HPE_HEADER_OVERFLOW');
  });

  test('a malformed request line gets 400 in the envelope without echoing the request', async () => {
    const answer = await raw(`GET /x HTTP/1.1\r\nAuthorization: Bearer ${apiKey}\r\nBad Header Line\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).not.toContain(apiKey);
    expect(app.logs.join('\n')).not.toContain(apiKey);
  });
});

describe('the process guard', () => {
  test('an unhandled rejection and an uncaught exception are logged and counted, and the process stays up', () => {
    const seen: string[] = [];
    const unguard = guardProcess(app.server.logger, (kind) => seen.push(kind));
    try {
      const emit = process.emit.bind(process) as (event: string, ...args: unknown[]) => boolean;
      emit('unhandledRejection', new Error('a timer forgot its catch'), Promise.resolve());
      emit('uncaughtException', new Error('a listener threw'), 'uncaughtException');
      expect(seen).toEqual(['unhandledRejection', 'uncaughtException']);
      expect(app.logs.join('\n')).toContain('a timer forgot its catch');
    } finally {
      unguard();
    }
  });
});

describe('every argument has a bound', () => {
  test.each([
    ['a 5 MB query', { method: 'POST', url: '/api/mock/fetchMarkets', payload: { args: [{ query: 'x'.repeat(5_000_000), limit: 5 }] } }, 'params.query'],
    ['a list limit of 1e9', { url: '/api/mock/fetchMarkets?limit=1000000000' }, 'params.limit'],
    [
      '2147483647 candles',
      { method: 'POST', url: '/api/mock/fetchOHLCV', payload: { args: ['mock-e1-m0-0', { resolution: '1m', limit: 2147483647 }] } },
      'params.limit',
    ],
    ['a 10 KB outcome id', { url: `/api/mock/fetchOrderBook?outcomeId=${'9'.repeat(10_000)}` }, 'outcomeId'],
    [
      '500 outcome ids at once',
      { method: 'POST', url: '/api/mock/fetchOrderBooks', payload: { args: [Array.from({ length: 500 }, (_, index) => `o${index}`)] } },
      'outcomeIds',
    ],
  ] as const)('%s is a VALIDATION_ERROR naming the argument', async (_title, request, path) => {
    const response = await app.call(request as never);
    expect(response.statusCode, response.payload.slice(0, 300)).toBe(400);
    const { error } = JSON.parse(response.payload) as { error: { code: string; detail: { path?: string; argument?: string } } };
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.detail.path ?? error.detail.argument).toBe(path);
  });

  test('a body over the size limit is 413 in the envelope', async () => {
    const response = await app.call({
      method: 'POST',
      url: '/api/mock/fetchEvents',
      payload: JSON.stringify({ args: [{ query: 'x'.repeat(6 * 1024 * 1024) }] }),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(413);
    expect(JSON.parse(response.payload)).toMatchObject({ success: false, error: { code: 'BAD_REQUEST' } });
  });
});

describe('errors take the envelope of the surface they are on', () => {
  test('an unknown path under /v0 is 404 in the Router’s envelope', async () => {
    const response = await app.call({ url: '/v0/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.payload)).toEqual({ error: { code: 'NOT_FOUND', message: 'No such route', retryable: false, detail: null } });
  });

  test.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s on a Router path is 405 with Allow: GET, in the Router’s envelope', async (method) => {
    const response = await app.call({ method, url: '/v0/events', payload: method === 'DELETE' ? undefined : {} });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET');
    expect(JSON.parse(response.payload)).toMatchObject({ error: { code: 'BAD_REQUEST', detail: { allow: 'GET' } } });
    expect(JSON.parse(response.payload).success).toBeUndefined();
  });

  test.each(['PUT', 'DELETE', 'PATCH'])('%s on a pass-through path is 405 with Allow: GET, POST, in the pass-through envelope', async (method) => {
    const response = await app.call({ method, url: '/api/mock/fetchEvents' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, POST');
    expect(JSON.parse(response.payload)).toMatchObject({ success: false, error: { code: 'BAD_REQUEST' } });
  });
});

describe('a credential that is no key', () => {
  test('a Polymarket private key past the curve order is AUTHENTICATION_ERROR naming the member, and the key is never logged or echoed', async () => {
    const key = `0x${'f'.repeat(64)}`;
    const polymarket = await testApp({ manifest: { venues: [{ id: 'polymarket', package: '@predgate/adapter-polymarket', version: '^0.1.0', config: {} }] } });
    try {
      const response = await polymarket.call({ method: 'POST', url: '/api/polymarket/fetchBalance', payload: { args: [], credentials: { privateKey: key } } });
      expect(response.statusCode).toBe(401);
      expect(JSON.parse(response.payload)).toMatchObject({ success: false, error: { code: 'AUTHENTICATION_ERROR', detail: { member: 'privateKey' } } });
      expect(response.payload).not.toContain('f'.repeat(64));
      const logs = polymarket.logs.join('\n');
      expect(logs).not.toContain('f'.repeat(64));
      expect(logs).not.toContain(BigInt(key).toString());
    } finally {
      await polymarket.stop();
    }
  });
});
