import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockAgent } from 'undici';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { PredgateError } from '../errors.js';
import { createHttpClientFactory } from './venue-http-client.js';

const origin = 'https://venue.test';

function mockVenue() {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const http = createHttpClientFactory({ dispatcher: agent });
  return { agent, pool: agent.get(origin), http };
}

async function rejection(promise: Promise<unknown>): Promise<PredgateError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PredgateError);
    return error as PredgateError;
  }
  throw new Error('expected the request to fail');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('requests', () => {
  test('sends repeated keys for array query values and parses JSON', async () => {
    const { pool, http } = mockVenue();
    pool
      .intercept({ path: '/events?tag=a&tag=b&limit=5&active=true', method: 'GET' })
      .reply(200, [{ id: '1' }], { headers: { 'content-type': 'application/json' } });
    const client = http({ venue: 'v' });
    const data = await client.json({ url: `${origin}/events`, query: { tag: ['a', 'b'], limit: 5, active: true, skip: undefined } });
    expect(data).toEqual([{ id: '1' }]);
  });

  test('sends a string body byte for byte and serialises other bodies as JSON', async () => {
    const { pool, http } = mockVenue();
    pool.intercept({ path: '/order', method: 'POST', body: '{"b":1,  "a":2}' }).reply(200, { first: true });
    pool.intercept({ path: '/order', method: 'POST', body: '{"a":1}' }).reply(200, { second: true });
    const client = http({ venue: 'v' });
    await expect(client.json({ method: 'POST', url: `${origin}/order`, body: '{"b":1,  "a":2}' })).resolves.toEqual({ first: true });
    await expect(client.json({ method: 'POST', url: `${origin}/order`, body: { a: 1 } })).resolves.toEqual({ second: true });
  });

  test('an endpoint read with exactIntegers hands integers past 2^53 over as their digits; other numbers as usual', async () => {
    const { pool, http } = mockVenue();
    const text =
      '{"pool": 9007199254740993, "token": 42859052879714956954021268148812996183888745727429575900918186031868405147361, "price": 0.535, "size": 12}';
    pool
      .intercept({ path: '/pools', method: 'GET' })
      .reply(200, text, { headers: { 'content-type': 'application/json' } })
      .times(2);
    const client = http({ venue: 'v' });
    await expect(client.json({ url: `${origin}/pools`, exactIntegers: true })).resolves.toEqual({
      pool: '9007199254740993',
      token: '42859052879714956954021268148812996183888745727429575900918186031868405147361',
      price: 0.535,
      size: 12,
    });
    await expect(client.json({ url: `${origin}/pools` })).resolves.toMatchObject({ pool: 9_007_199_254_740_992 });
  });

  test('one client per venue, sharing its pool and limits', () => {
    const { http } = mockVenue();
    expect(http({ venue: 'v' })).toBe(http({ venue: 'v' }));
    expect(http({ venue: 'v' })).not.toBe(http({ venue: 'w' }));
  });
});

describe('deprecation notices', () => {
  test('an endpoint answering with Deprecation or Sunset headers is recorded once per path, with its successor link', async () => {
    const { pool, http } = mockVenue();
    const headers = {
      'content-type': 'application/json',
      deprecation: '@1777593600',
      sunset: 'Fri, 01 May 2026 00:00:00 GMT',
      link: '<https://docs.venue.test/changelog>; rel="help", <https://venue.test/markets/keyset>; rel="successor-version"',
    };
    pool.intercept({ path: '/markets?limit=2', method: 'GET' }).reply(200, [], { headers }).times(2);
    pool.intercept({ path: '/events', method: 'GET' }).reply(200, [], { headers: { 'content-type': 'application/json' } });
    const client = http({ venue: 'v' });
    await client.json({ url: `${origin}/markets`, query: { limit: 2 } });
    await client.json({ url: `${origin}/markets`, query: { limit: 2 } });
    await client.json({ url: `${origin}/events` });
    expect(http.deprecations()).toEqual({
      v: [
        {
          path: '/markets',
          deprecation: '@1777593600',
          sunset: 'Fri, 01 May 2026 00:00:00 GMT',
          link: 'https://venue.test/markets/keyset',
          firstSeenAt: expect.any(Number),
        },
      ],
    });
  });

  test('a venue without such headers has no notices', async () => {
    const { pool, http } = mockVenue();
    pool.intercept({ path: '/events', method: 'GET' }).reply(200, [], { headers: { 'content-type': 'application/json' } });
    await http({ venue: 'v' }).json({ url: `${origin}/events` });
    expect(http.deprecations()).toEqual({ v: [] });
  });
});

describe('retries', () => {
  test('retries an idempotent read on 5xx and returns the eventual answer', async () => {
    const { pool, http, agent } = mockVenue();
    pool.intercept({ path: '/book', method: 'GET' }).reply(503, 'busy').times(2);
    pool.intercept({ path: '/book', method: 'GET' }).reply(200, { ok: true });
    const client = http({ venue: 'v', retry: { minDelayMs: 1, maxDelayMs: 5 } });
    await expect(client.json({ url: `${origin}/book` })).resolves.toEqual({ ok: true });
    expect(agent.pendingInterceptors()).toHaveLength(0);
  });

  test('waits twice as long before each retry, never past maxDelayMs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { pool, http } = mockVenue();
    let served = 0;
    pool
      .intercept({ path: '/book', method: 'GET' })
      .reply(() => ({ statusCode: ++served < 4 ? 503 : 200, data: { served } }))
      .times(4);
    const client = http({ venue: 'v', retry: { maxRetries: 3, minDelayMs: 100, maxDelayMs: 150 } });
    const answer = client.json({ url: `${origin}/book` });
    await vi.advanceTimersByTimeAsync(99);
    expect(served).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(served).toBe(2);
    // 200 ms by doubling, cut to 150.
    await vi.advanceTimersByTimeAsync(149);
    expect(served).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(served).toBe(3);
    await vi.advanceTimersByTimeAsync(150);
    await expect(answer).resolves.toEqual({ served: 4 });
  });

  test('never retries a write', async () => {
    const { pool, http, agent } = mockVenue();
    pool.intercept({ path: '/order', method: 'POST' }).reply(503, { error: 'down' });
    pool.intercept({ path: '/order', method: 'POST' }).reply(200, { id: 'second attempt' });
    const client = http({ venue: 'v', retry: { minDelayMs: 1 } });
    const error = await rejection(client.request({ method: 'POST', url: `${origin}/order`, body: {} }));
    expect(error.code).toBe('EXCHANGE_NOT_AVAILABLE');
    expect(agent.pendingInterceptors()).toHaveLength(1);
  });

  test('a POST read marked idempotent is retried', async () => {
    const { pool, http } = mockVenue();
    pool.intercept({ path: '/books', method: 'POST' }).reply(502, '');
    pool.intercept({ path: '/books', method: 'POST' }).reply(200, []);
    const client = http({ venue: 'v', retry: { minDelayMs: 1 } });
    await expect(client.json({ method: 'POST', url: `${origin}/books`, body: [], idempotent: true })).resolves.toEqual([]);
  });

  test('a 429 that outlasts the retries becomes RATE_LIMIT_EXCEEDED with retryAfter', async () => {
    const { pool, http } = mockVenue();
    pool
      .intercept({ path: '/book', method: 'GET' })
      .reply(429, { error: 'too many requests' }, { headers: { 'retry-after': '0' } })
      .times(3);
    const client = http({ venue: 'v', retry: { maxRetries: 2, minDelayMs: 1 } });
    const error = await rejection(client.request({ url: `${origin}/book` }));
    expect(error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(error.retryable).toBe(true);
    expect(error.exchange).toBe('v');
    expect(error.detail).toMatchObject({ status: 429, retryAfter: 0, venueMessage: 'too many requests' });
  });
});

describe('status mapping', () => {
  test.each([
    [400, 'BAD_REQUEST'],
    [401, 'AUTHENTICATION_ERROR'],
    [403, 'PERMISSION_DENIED'],
    [404, 'NOT_FOUND'],
    [422, 'BAD_REQUEST'],
    [500, 'EXCHANGE_NOT_AVAILABLE'],
    [504, 'EXCHANGE_NOT_AVAILABLE'],
  ])('HTTP %i becomes %s with the venue message in detail', async (status, code) => {
    const { pool, http } = mockVenue();
    pool
      .intercept({ path: '/x', method: 'GET' })
      .reply(status, { error: { message: 'venue says no' } })
      .persist();
    const client = http({ venue: 'v', retry: { maxRetries: 0 } });
    const error = await rejection(client.request({ url: `${origin}/x` }));
    expect(error.code).toBe(code);
    expect(error.detail).toMatchObject({ status, venueMessage: 'venue says no', path: '/x' });
  });

  test("the venue's own mapping wins when it recognises the failure", async () => {
    const { pool, http } = mockVenue();
    pool.intercept({ path: '/book', method: 'GET' }).reply(404, { error: 'No orderbook exists for the requested token id' });
    const client = http({
      venue: 'v',
      mapError: (failure) => (failure.status === 404 ? new PredgateError('MARKET_NOT_FOUND', 'no such market', { exchange: 'v' }) : undefined),
    });
    const error = await rejection(client.request({ url: `${origin}/book` }));
    expect(error.code).toBe('MARKET_NOT_FOUND');
  });

  test('malformed JSON in a success answer is EXCHANGE_NOT_AVAILABLE', async () => {
    const { pool, http } = mockVenue();
    pool.intercept({ path: '/x', method: 'GET' }).reply(200, '{"cut', { headers: { 'content-type': 'application/json' } });
    const error = await rejection(http({ venue: 'v' }).request({ url: `${origin}/x` }));
    expect(error.code).toBe('EXCHANGE_NOT_AVAILABLE');
  });
});

describe('network failures against a local server', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  test('a venue that does not answer in time is NETWORK_ERROR', async () => {
    server = createServer(() => {
      // never answers
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const http = createHttpClientFactory();
    const client = http({ venue: 'slow', timeouts: { requestMs: 150 } });
    const error = await rejection(client.request({ url: `http://127.0.0.1:${port}/book` }));
    await http.close();
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.retryable).toBe(true);
    expect(error.detail).toEqual({ cause: 'UND_ERR_HEADERS_TIMEOUT' });
  });

  test('a venue that resets the connection while sending the body is NETWORK_ERROR', async () => {
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      response.write('{"bids":[', () => response.destroy());
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const http = createHttpClientFactory();
    const client = http({ venue: 'flaky', retry: { maxRetries: 0 } });
    const error = await rejection(client.request({ url: `http://127.0.0.1:${port}/book` }));
    await http.close();
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.detail).toEqual({ cause: 'UND_ERR_SOCKET' });
  });

  test('waits as long as Retry-After says before retrying', async () => {
    const arrivals: number[] = [];
    server = createServer((_request, response) => {
      arrivals.push(performance.now());
      if (arrivals.length === 1) {
        response.writeHead(429, { 'retry-after': '1' }).end('slow down');
      } else {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      }
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const http = createHttpClientFactory();
    const client = http({ venue: 'busy', retry: { minDelayMs: 1 } });
    await expect(client.json({ url: `http://127.0.0.1:${port}/book` })).resolves.toEqual({ ok: true });
    await http.close();
    expect(arrivals).toHaveLength(2);
    // The backoff alone would have waited 1 ms.
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(950);
  });

  test('a refused connection is NETWORK_ERROR after the retries', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const http = createHttpClientFactory();
    const client = http({ venue: 'gone', retry: { minDelayMs: 1, maxDelayMs: 2 } });
    const error = await rejection(client.request({ url: `http://127.0.0.1:${port}/book` }));
    await http.close();
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.detail).toEqual({ cause: 'ECONNREFUSED' });
    expect(error.message).toBe('Could not reach gone');
  });
});

describe('fallback origins against real sockets', () => {
  test('a host that refuses connections sends the request, a write included, to the next origin, which stays in use', async () => {
    const seen: string[] = [];
    const answering = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => answering.listen(0, '127.0.0.1', resolve));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const dead = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const alive = `http://127.0.0.1:${(answering.address() as AddressInfo).port}`;
    const http = createHttpClientFactory();
    const client = http({ venue: 'moved', retry: { minDelayMs: 1, maxDelayMs: 2 }, fallbackOrigins: { [dead]: [alive] } });
    try {
      await expect(client.json({ url: `${dead}/markets?limit=1` })).resolves.toEqual({ ok: true });
      await expect(client.json({ method: 'POST', url: `${dead}/orders`, body: { side: 'buy' } })).resolves.toEqual({ ok: true });
      expect(seen).toEqual(['GET /markets?limit=1', 'POST /orders']);
      expect(http.fallbacks()).toEqual({ moved: { [dead]: alive } });
    } finally {
      await http.close();
      await new Promise<void>((resolve) => answering.close(() => resolve()));
    }
  });
});

describe('answers that are not what a venue should send', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });
  const listen = async (handler: Parameters<typeof createServer>[1]) => {
    server = createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  test('an HTML page with a 200 is EXCHANGE_NOT_AVAILABLE, not data read from its characters', async () => {
    const { pool, http } = mockVenue();
    pool
      .intercept({ path: '/events', method: 'GET' })
      .reply(200, '<!doctype html><html><body>Maintenance</body></html>', { headers: { 'content-type': 'text/html; charset=utf-8' } });
    const error = await rejection(http({ venue: 'v' }).json({ url: `${origin}/events` }));
    expect(error.code).toBe('EXCHANGE_NOT_AVAILABLE');
    expect(error.message).toBe('v answered with text/html where JSON was expected');
    expect(error.detail).toEqual({ status: 200, path: '/events', contentType: 'text/html' });
  });

  test('a text answer is read as text where the adapter says so', async () => {
    const { pool, http } = mockVenue();
    pool.intercept({ path: '/time', method: 'GET' }).reply(200, '1785734468', { headers: { 'content-type': 'text/plain' } });
    await expect(http({ venue: 'v' }).json({ url: `${origin}/time`, expect: 'text' })).resolves.toBe('1785734468');
  });

  test('a body over the cap is refused: declared in content-length, or streamed without one', async () => {
    const url = await listen((request, response) => {
      const big = JSON.stringify({ bids: Array.from({ length: 40_000 }, (_, index) => [String(index), '1']) });
      if (request.url === '/declared')
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(big)) }).end(big);
      else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(big);
      }
    });
    const http = createHttpClientFactory();
    const client = http({ venue: 'huge', maxBodyBytes: 64 * 1024 });
    for (const path of ['/declared', '/chunked']) {
      const error = await rejection(client.request({ url: `${url}${path}` }));
      expect(error.code).toBe('EXCHANGE_NOT_AVAILABLE');
      expect(error.detail).toMatchObject({ path, maxBodyBytes: 65536 });
    }
    // An endpoint known to answer large raises the cap for itself.
    await expect(client.json({ url: `${url}/chunked`, maxBodyBytes: 4 * 1024 * 1024 })).resolves.toMatchObject({ bids: expect.any(Array) });
    await http.close();
  });

  test('a body cut short of its content-length is NETWORK_ERROR, never a 500', async () => {
    const url = await listen((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      // The connection closes cleanly after a tenth of the body.
      response.write('{"bids":[', () => response.socket?.end());
    });
    const http = createHttpClientFactory({ retry: { minDelayMs: 1, maxDelayMs: 2 } });
    const error = await rejection(http({ venue: 'cut' }).request({ url: `${url}/book` }));
    await http.close();
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.retryable).toBe(true);
  });
});

describe('rate limit', () => {
  test('holds requests beyond the token bucket until tokens drip back', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { pool, http } = mockVenue();
    let served = 0;
    pool
      .intercept({ path: '/x', method: 'GET' })
      .reply(() => ({ statusCode: 200, data: { served: ++served } }))
      .times(3);
    const client = http({ venue: 'v', rateLimit: { requests: 2, intervalMs: 1_000 } });
    const calls = [1, 2, 3].map(() => client.json({ url: `${origin}/x` }));
    await vi.advanceTimersByTimeAsync(10);
    expect(served).toBe(2);
    // One token drips back every 500 ms.
    await vi.advanceTimersByTimeAsync(600);
    await Promise.all(calls);
    expect(served).toBe(3);
  });
});
