import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { ServerInjectOptions, ServerInjectResponse } from '@hapi/hapi';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, now, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

/**
 * A catalog answer already compressed is sent right after the key check and
 * the request budget, before validation and the handler. These tests hold it
 * to the handler's answer and to every check that comes before the handler.
 */
let app: TestApp;
let clock = now;
/** Requests that reached the handler's stage: an answer sent early never does. */
let handled = 0;
let eventId: string;

beforeAll(async () => {
  app = await testApp({ clock: { now: () => clock }, config: { rateLimit: { requests: 0, windowSeconds: 60 } } });
  app.server.ext('onPreHandler', (_request, h) => {
    handled += 1;
    return h.continue;
  });
  await app.catalog.sweep('mock');
  eventId = (JSON.parse((await app.call({ url: '/v0/events?limit=1' })).payload) as { data: Array<{ id: string }> }).data[0]!.id;
});
afterAll(() => app.stop());

const compressed = { 'accept-encoding': 'gzip, deflate, br' };

const counted = async (name: string, labels: string): Promise<number> => {
  const metrics = (await app.call({ url: '/metrics' })).payload;
  const line = new RegExp(`^${name}\\{${labels}\\} (\\d+)$`, 'm').exec(metrics);
  return Number(line?.[1] ?? 0);
};

/** The same request twice: the first built by the handler, the second as it is answered once cached. */
async function twice(request: ServerInjectOptions): Promise<{ built: ServerInjectResponse; cached: ServerInjectResponse; handled: number }> {
  const before = handled;
  const built = await app.call(request);
  const cached = await app.call(request);
  return { built, cached, handled: handled - before };
}

describe('a cached catalog answer sent before the handler', () => {
  // A mock event is under 4 KiB: sent as it is, as any answer that small. A Router page goes in gzip to a client
  // that takes it, stitched from its events' pieces, and so do pages of events and of markets.
  const requests: Array<[string, () => ServerInjectOptions, string | undefined]> = [
    ['a Router page', () => ({ url: '/v0/events?limit=9&offset=3', headers: compressed }), 'gzip'],
    ['a Router event', () => ({ url: `/v0/events/${eventId}`, headers: compressed }), undefined],
    ['a pass-through GET', () => ({ url: '/api/mock/fetchEvents?limit=6', headers: compressed }), 'gzip'],
    ['a pass-through POST', () => ({ method: 'POST', url: '/api/mock/fetchMarkets', payload: { args: [{ limit: 5 }] }, headers: compressed }), 'gzip'],
  ];

  test.each(requests)('%s is byte for byte the answer the handler built, status and headers included', async (_title, request, encoding) => {
    const { built, cached, handled } = await twice(request());
    expect(built.statusCode).toBe(200);
    expect(handled).toBe(1);
    expect(cached.statusCode).toBe(200);
    // Node dates each response to the second: two requests may straddle one.
    const { date: _cachedDate, ...cachedHeaders } = cached.headers;
    const { date: _builtDate, ...builtHeaders } = built.headers;
    expect(cachedHeaders).toEqual(builtHeaders);
    expect(cached.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8' });
    expect(cached.headers['content-encoding']).toBe(encoding);
    if (encoding) expect(cached.headers.vary).toBe('accept-encoding');
    expect(Number(cached.headers['content-length'])).toBe(cached.rawPayload.length);
    expect(cached.rawPayload.equals(built.rawPayload)).toBe(true);
  });

  test('each query text is its own answer: a cached page is never sent for another query', async () => {
    for (const url of ['/v0/events?limit=3', '/v0/events?limit=4', '/v0/events', '/api/mock/fetchEvents?limit=3', '/api/mock/fetchEvents?limit=4']) {
      await twice({ url, headers: compressed });
    }
    const count = async (url: string) => {
      const body = JSON.parse((await app.call({ url })).payload) as { data: unknown[] };
      return body.data.length;
    };
    expect([await count('/v0/events?limit=3'), await count('/v0/events?limit=4')]).toEqual([3, 4]);
    expect([await count('/api/mock/fetchEvents?limit=3'), await count('/api/mock/fetchEvents?limit=4')]).toEqual([3, 4]);
    const cached = async (url: string) => (await app.call({ url, headers: compressed })).rawPayload;
    expect((await cached('/v0/events?limit=3')).equals(await cached('/v0/events?limit=4'))).toBe(false);
    expect((await cached('/v0/events')).equals(await cached('/v0/events?limit=3'))).toBe(false);
  });

  test('a pass-through call answered early still counts as a catalog answer and as a request', async () => {
    const request = { method: 'POST', url: '/api/mock/fetchEvent', payload: { args: [{ eventId: 'mock-e7' }] }, headers: compressed };
    const answers = () => counted('predgate_catalog_answers_total', 'venue="mock",method="fetchEvent"');
    const requests = () => counted('predgate_http_requests_total', 'exchange="mock",method="fetchEvent",status="200"');
    const [answersBefore, requestsBefore] = [await answers(), await requests()];
    const { handled } = await twice(request);
    expect(handled).toBe(1);
    expect(await answers()).toBe(answersBefore + 2);
    expect(await requests()).toBe(requestsBefore + 2);
  });

  test('an answer sent early is logged like any other request, without its API key', async () => {
    const request = { method: 'POST', url: '/api/mock/fetchMarket', payload: { args: [{ marketId: 'mock-e3-m0' }] }, headers: compressed };
    const lines = () => app.logs.filter((line) => line.includes('[response]') && line.includes('"path":"/api/mock/fetchMarket"'));
    const before = lines().length;
    const { cached, handled } = await twice(request);
    expect(cached.statusCode).toBe(200);
    expect(handled).toBe(1);
    const logged = lines().slice(before);
    expect(logged).toHaveLength(2);
    expect(JSON.parse(logged[1]!)).toMatchObject({ method: 'post', res: { statusCode: 200 } });
    expect(logged.join('\n')).not.toContain(apiKey);
  });

  test('a request without a valid key is 401 even when its answer is cached', async () => {
    const url = '/v0/events?limit=4';
    expect((await twice({ url, headers: compressed })).cached.statusCode).toBe(200);
    for (const headers of [{}, { authorization: 'Bearer not-the-key-000000' }, { 'x-api-key': 'not-the-key-000000' }]) {
      const refused = await app.server.inject({ url, headers: { ...compressed, ...headers } });
      expect(refused.statusCode).toBe(401);
      expect(JSON.parse(refused.payload)).toMatchObject({ error: { code: 'INVALID_API_KEY' } });
    }
  });

  test('a key removed from the key store stops working for answers it was given from the cache', async () => {
    const { key, record } = await app.keys.create('short-lived');
    const request = {
      method: 'POST' as const,
      url: '/api/mock/fetchMarkets',
      payload: { args: [{ limit: 3 }] },
      headers: { ...compressed, authorization: `Bearer ${key}` },
    };
    expect((await app.server.inject(request)).statusCode).toBe(200);
    expect((await app.server.inject(request)).statusCode).toBe(200);
    expect(await app.keys.revoke(record.id)).toBe(true);
    expect((await app.server.inject(request)).statusCode).toBe(401);
  });

  test('a new catalog generation is not sent the page of the one before', async () => {
    const request = { url: '/api/mock/fetchEvents?limit=2&offset=1', headers: compressed };
    expect((await twice(request)).handled).toBe(1);
    await app.catalog.sweep('mock');
    const before = handled;
    expect((await app.call(request)).statusCode).toBe(200);
    expect(handled).toBe(before + 1);
  });

  test('a stale catalog is not answered from the cache: the venue is asked, as the handler would', async () => {
    const request = { method: 'POST', url: '/api/mock/fetchMarkets', payload: { args: [{ limit: 4 }] }, headers: compressed };
    const answers = () => counted('predgate_catalog_answers_total', 'venue="mock",method="fetchMarkets"');
    expect((await twice(request)).handled).toBe(1);
    const answersBefore = await answers();
    clock += 365 * 24 * 3600 * 1000;
    try {
      expect(app.catalog.isFresh('mock')).toBe(false);
      const before = handled;
      expect((await app.call(request)).statusCode).toBe(200);
      expect(handled).toBe(before + 1);
      expect(await answers()).toBe(answersBefore);
    } finally {
      clock = now;
    }
  });

  test('a page kept as it was sent, uncompressed, is not what a client taking compression is sent: the handler compresses it once', async () => {
    const url = '/v0/events?limit=30&offset=7';
    const plain = await twice({ url });
    expect(plain.handled).toBe(1);
    expect(plain.cached.headers['content-encoding']).toBeUndefined();
    expect(plain.cached.rawPayload.length).toBeGreaterThan(4096);
    // Sent the plain bytes, hapi would compress them again on every request instead of once.
    for (const [headers, coding, decode] of [
      [compressed, 'gzip', gunzipSync],
      [{ 'accept-encoding': 'br' }, 'br', brotliDecompressSync],
    ] as const) {
      const packed = await twice({ url, headers });
      expect(packed.handled).toBe(1);
      for (const answer of [packed.built, packed.cached]) {
        expect(answer.headers['content-encoding']).toBe(coding);
        expect(decode(answer.rawPayload).equals(plain.built.rawPayload)).toBe(true);
      }
    }
    const deflated = await app.call({ url, headers: { 'accept-encoding': 'deflate' } });
    expect(deflated.headers['content-encoding']).toBe('deflate');
    expect(inflateSync(deflated.rawPayload).equals(plain.built.rawPayload)).toBe(true);
  });

  test('a request of another form is validated, even when its text names a cached page', async () => {
    expect((await twice({ url: '/v0/events?limit=5', headers: compressed })).cached.statusCode).toBe(200);
    const odd = await app.call({ url: '/v0/events/%3Flimit%3D5', headers: compressed });
    expect(odd.statusCode).toBe(400);
    expect(JSON.parse(odd.payload)).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
  });
});

describe('the request budget', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await testApp({ config: { rateLimit: { requests: 3, windowSeconds: 60 } } });
    await limited.catalog.sweep('mock');
  });
  afterAll(() => limited.stop());

  test('is spent by answers sent from the cache: past it they are 429', async () => {
    const request = { method: 'POST', url: '/api/mock/fetchEvents', payload: { args: [{ limit: 3 }] }, headers: compressed };
    const statuses = [];
    for (let index = 0; index < 4; index += 1) statuses.push((await limited.call(request)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await limited.call({ url: '/v0/events?limit=3', headers: compressed })).statusCode).toBe(429);
  });
});
