import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await testApp({ config: { rateLimit: { requests: 3, windowSeconds: 60 } } });
});
afterAll(() => app.stop());

const url = '/api/mock/fetchEvents?limit=1';

describe('API keys', () => {
  test.each([
    ['no key', {}, 'Missing API key'],
    ['a wrong Bearer key', { authorization: 'Bearer not-the-key-000000' }, 'Invalid API key'],
    ['a wrong x-api-key', { 'x-api-key': 'not-the-key-000000' }, 'Invalid API key'],
    ['a malformed Authorization header', { authorization: `Basic ${apiKey}` }, 'Missing API key'],
    ["only pmxt's access token", { 'x-pmxt-access-token': apiKey }, 'Missing API key'],
  ])('%s is 401 INVALID_API_KEY', async (_title, headers, message) => {
    const response = await app.server.inject({ url, headers });
    expect(response.statusCode).toBe(401);
    expect(response.result).toEqual({
      success: false,
      error: { code: 'INVALID_API_KEY', message: expect.stringContaining(message), retryable: false, exchange: null, detail: null },
    });
  });

  test('x-api-key is accepted as a fallback, and a pmxt access token next to a key is ignored', async () => {
    expect((await app.server.inject({ url, headers: { 'x-api-key': apiKey } })).statusCode).toBe(200);
    expect((await app.server.inject({ url, headers: { authorization: `Bearer ${apiKey}`, 'x-pmxt-access-token': 'whatever' } })).statusCode).toBe(200);
  });

  test('/health needs no key', async () => {
    const response = await app.server.inject({ url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.result).toMatchObject({ status: 'ok' });
  });

  test('keys never appear in the logs', () => {
    expect(app.logs.join('\n')).not.toContain(apiKey);
  });
});

describe('per-key rate limit', () => {
  test('answers 429 RATE_LIMIT_EXCEEDED, retryable, with Retry-After, once the budget is spent', async () => {
    const limited = await testApp({ config: { rateLimit: { requests: 2, windowSeconds: 60 } } });
    try {
      const statuses = [];
      const remaining = [];
      for (let index = 0; index < 3; index += 1) {
        const answer = await limited.call({ url });
        statuses.push(answer.statusCode);
        remaining.push(answer.headers['ratelimit-remaining']);
        expect(answer.headers['ratelimit-limit']).toBe('2');
        expect(Number(answer.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
        expect(Number(answer.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
      }
      expect(statuses).toEqual([200, 200, 429]);
      expect(remaining).toEqual(['1', '0', '0']);
      const response = await limited.call({ url });
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(response.headers['ratelimit-reset']).toBe(response.headers['retry-after']);
      expect(response.result).toMatchObject({
        success: false,
        error: { code: 'RATE_LIMIT_EXCEEDED', retryable: true, detail: { limit: 2, windowSeconds: 60 } },
      });
      // /health is outside the budget, and says nothing of it.
      const health = await limited.server.inject({ url: '/health' });
      expect(health.statusCode).toBe(200);
      expect(health.headers['ratelimit-limit']).toBeUndefined();
    } finally {
      await limited.stop();
    }
  });

  test('a limit of 0 requests turns the limit off', async () => {
    const unlimited = await testApp({ config: { rateLimit: { requests: 0, windowSeconds: 60 } } });
    try {
      const statuses = await Promise.all(Array.from({ length: 20 }, () => unlimited.call({ url })).map(async (call) => (await call).statusCode));
      expect(new Set(statuses)).toEqual(new Set([200]));
    } finally {
      await unlimited.stop();
    }
  });
});
