import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockAgent } from 'undici';
import { describe, expect, test } from 'vitest';
import { PredgateError } from '../errors.js';
import { OriginFallback } from './origin-fallback.js';
import { createHttpClientFactory } from './venue-http-client.js';

const named = 'https://external-api.venue.test';
const older = 'https://api.venue.test';

describe('OriginFallback', () => {
  test('tries the named origin first, then its fallbacks, keeping path and query', () => {
    const fallback = new OriginFallback({ origins: { [named]: [older] } });
    const urls = fallback.candidates(new URL(`${named}/trade-api/v2/events?limit=5`)).map(String);
    expect(urls).toEqual([`${named}/trade-api/v2/events?limit=5`, `${older}/trade-api/v2/events?limit=5`]);
    expect(fallback.candidates(new URL('https://other.test/x')).map(String)).toEqual(['https://other.test/x']);
  });

  test('a fallback that answered is asked first until the probe window passes, then the named origin again', () => {
    let now = 0;
    const fallback = new OriginFallback({ origins: { [named]: [older] }, probeAfterMs: 1_000, now: () => now });
    expect(fallback.answered(named, older)).toBe(true);
    expect(fallback.active()).toEqual({ [named]: older });
    expect(fallback.candidates(new URL(`${named}/a`)).map((url) => url.origin)).toEqual([older, named]);
    now = 1_000;
    expect(fallback.candidates(new URL(`${named}/a`)).map((url) => url.origin)).toEqual([named, older]);
    expect(fallback.answered(named, named)).toBe(true);
    expect(fallback.active()).toEqual({});
    expect(fallback.answered(named, named)).toBe(false);
  });
});

describe('a venue host that does not resolve or connect', () => {
  const unresolvable = () => Object.assign(new Error(`getaddrinfo ENOTFOUND ${new URL(named).hostname}`), { code: 'ENOTFOUND' });

  test('a name that does not resolve sends reads and writes to the fallback, which stays in use and is reported', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get(named)
      .intercept({ path: () => true, method: () => true })
      .replyWithError(unresolvable())
      .persist();
    agent.get(older).intercept({ path: '/events?limit=1', method: 'GET' }).reply(200, { events: [] }).times(2);
    agent
      .get(older)
      .intercept({ path: '/orders', method: 'POST' })
      .reply(201, { order: { id: 'o-1' } });
    const http = createHttpClientFactory({ dispatcher: agent, retry: { maxRetries: 0 } });
    const client = http({ venue: 'v', fallbackOrigins: { [named]: [older] } });

    await expect(client.json({ url: `${named}/events`, query: { limit: 1 } })).resolves.toEqual({ events: [] });
    expect(http.fallbacks()).toEqual({ v: { [named]: older } });
    // Nothing reached the unresolvable host, so an order may go to the next one.
    await expect(client.json({ method: 'POST', url: `${named}/orders`, body: { side: 'yes' } })).resolves.toEqual({ order: { id: 'o-1' } });
    await expect(client.json({ url: `${named}/events`, query: { limit: 1 } })).resolves.toEqual({ events: [] });
    agent.assertNoPendingInterceptors();
  });

  test('a refused connection on 127.0.0.1 falls back to a live local server', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const live = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    await new Promise<void>((resolve) => live.listen(0, '127.0.0.1', resolve));
    const livePort = (live.address() as AddressInfo).port;
    const http = createHttpClientFactory({ retry: { maxRetries: 0 } });
    try {
      const client = http({ venue: 'v', fallbackOrigins: { [`http://127.0.0.1:${deadPort}`]: [`http://127.0.0.1:${livePort}`] } });
      await expect(client.json({ url: `http://127.0.0.1:${deadPort}/status` })).resolves.toEqual({ ok: true });
    } finally {
      await http.close();
      await new Promise<void>((resolve) => live.close(() => resolve()));
    }
  });

  test('a venue answer (a 503) is the venue speaking: no other host is asked', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get(named).intercept({ path: '/events', method: 'GET' }).reply(503, { message: 'maintenance' });
    const http = createHttpClientFactory({ dispatcher: agent, retry: { maxRetries: 0 } });
    const client = http({ venue: 'v', fallbackOrigins: { [named]: [older] }, circuit: false });
    const error = await client.json({ url: `${named}/events` }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PredgateError);
    expect((error as PredgateError).code).toBe('EXCHANGE_NOT_AVAILABLE');
    expect(http.fallbacks()).toEqual({});
  });

  test('when no host can be reached the error is NETWORK_ERROR naming the cause', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get(named).intercept({ path: '/events', method: 'GET' }).replyWithError(unresolvable());
    agent
      .get(older)
      .intercept({ path: '/events', method: 'GET' })
      .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const http = createHttpClientFactory({ dispatcher: agent, retry: { maxRetries: 0 } });
    const client = http({ venue: 'v', fallbackOrigins: { [named]: [older] }, circuit: false });
    const error = (await client.json({ url: `${named}/events` }).catch((caught: unknown) => caught)) as PredgateError;
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.detail).toMatchObject({ cause: 'ECONNREFUSED' });
  });
});
