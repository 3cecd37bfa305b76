import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await testApp({ config: { port: 0, host: '127.0.0.1', rateLimit: { requests: 2, windowSeconds: 60 } } });
  await app.server.start();
});
afterAll(() => app.stop());

/** The status a `/ws` upgrade is answered with (101 when the socket opens), and the body of a refusal. */
function upgrade(): Promise<{ status: number; body: string; remaining: unknown }> {
  const socket = new WebSocket(`${app.server.info.uri.replace('http', 'ws')}/ws?apiKey=${apiKey}`);
  return new Promise((resolve) => {
    let remaining: unknown;
    socket.once('upgrade', (response) => (remaining = response.headers['ratelimit-remaining']));
    socket.once('open', () => {
      socket.close();
      resolve({ status: 101, body: '', remaining });
    });
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, remaining: response.headers['ratelimit-remaining'] }));
    });
    socket.once('error', () => undefined);
  });
}

test('a /ws upgrade spends the key’s request budget like an HTTP call: spent, it is 429 with retryAfter', async () => {
  expect((await app.call({ url: '/api/mock/fetchEvents?limit=1' })).statusCode).toBe(200);
  expect(await upgrade()).toMatchObject({ status: 101, remaining: '0' });
  const refused = await upgrade();
  expect(refused).toMatchObject({ status: 429, remaining: '0' });
  expect(JSON.parse(refused.body)).toMatchObject({ success: false, error: { code: 'RATE_LIMIT_EXCEEDED', detail: { retryAfter: expect.any(Number) } } });
  expect((await app.call({ url: '/api/mock/fetchEvents?limit=1' })).statusCode).toBe(429);
});
