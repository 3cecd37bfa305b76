import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { request as undiciRequest } from 'undici';
import { apiKey, now, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

/** Every pass-through and Router answer says where it was served from and how old its data is; its body is the same either way. */
describe('served-from and data-age headers', () => {
  let app: TestApp;
  let clock = now;
  const sweptAt = () => app.catalog.status().find((status) => status.venue === 'mock')!.lastSweep!.finishedAt;
  const headersOf = (response: { headers: Record<string, unknown> }) => ({
    from: response.headers['predgate-served-from'],
    age: response.headers['predgate-data-age'],
  });

  beforeAll(async () => {
    app = await testApp({ clock: { now: () => clock } });
    await app.catalog.sweep('mock');
  });
  afterAll(() => app.stop());

  test('a catalog answer is as old as the venue’s last sweep, also when it is sent again from the cache', async () => {
    clock = sweptAt() + 12_400;
    const first = await app.call({ url: '/api/mock/fetchEvents?limit=2' });
    expect(first.statusCode).toBe(200);
    expect(headersOf(first)).toEqual({ from: 'catalog', age: '12' });
    clock += 30_000;
    const again = await app.call({ url: '/api/mock/fetchEvents?limit=2' });
    expect(headersOf(again)).toEqual({ from: 'catalog', age: '42' });
    expect(again.payload).toBe(first.payload);
    expect(JSON.parse(first.payload)).toMatchObject({ success: true, data: [{}, {}] });
  });

  test('a live answer is served live, as of now', async () => {
    clock = sweptAt();
    const events = JSON.parse((await app.call({ url: '/api/mock/fetchEvents?limit=1' })).payload) as {
      data: Array<{ markets: Array<{ outcomes: Array<{ outcomeId: string }> }> }>;
    };
    const outcomeId = events.data[0]!.markets[0]!.outcomes[0]!.outcomeId;
    const book = await app.call({ url: `/api/mock/fetchOrderBook?outcomeId=${outcomeId}` });
    expect(book.statusCode).toBe(200);
    expect(headersOf(book)).toEqual({ from: 'live', age: '0' });
    // Parameters the catalog cannot answer go live too.
    expect(headersOf(await app.call({ url: '/api/mock/fetchEvents?limit=2&sort=newest' }))).toEqual({ from: 'live', age: '0' });
  });

  test('the Router answers from the catalog, on /v0 and on /api/router, as old as the oldest venue’s sweep', async () => {
    clock = sweptAt() + 5_000;
    for (const url of ['/v0/events?limit=2', '/api/router/fetchEvents?limit=2']) {
      const response = await app.call({ url });
      expect(response.statusCode).toBe(200);
      expect(headersOf(response)).toEqual({ from: 'catalog', age: '5' });
    }
    const id = (JSON.parse((await app.call({ url: '/v0/events?limit=1' })).payload) as { data: Array<{ id: string }> }).data[0]!.id;
    expect(headersOf(await app.call({ url: `/v0/events/${id}` }))).toEqual({ from: 'catalog', age: '5' });
  });

  test('what the gateway answers from what it knows itself, and errors, say nothing of a source', async () => {
    for (const url of ['/api/mock/describe', '/api/mock/fetchEvents?limit=0', '/api/mock/fetchEvents?limit=2&sourceExchange=elsewhere']) {
      expect(headersOf(await app.call({ url }))).toEqual({ from: undefined, age: undefined });
    }
  });
});

describe('a kept answer sent again in front of hapi', () => {
  test('gets its data age afresh each time it is sent', async () => {
    let clock = now;
    const app = await testApp({ logLevel: 'info', clock: { now: () => clock }, config: { port: 0, host: '127.0.0.1' } });
    try {
      await app.catalog.sweep('mock');
      await app.server.start();
      const origin = `http://127.0.0.1:${app.server.info.port}`;
      let seenByHapi = 0;
      app.server.ext('onRequest', (_request, h) => {
        seenByHapi += 1;
        return h.continue;
      });
      const get = async () => {
        const response = await undiciRequest(`${origin}/api/mock/fetchMarkets?limit=3`, { headers: { authorization: `Bearer ${apiKey}` } });
        await response.body.arrayBuffer();
        return response.headers;
      };
      // Built by the first call, kept, then sent again from the cache on the lean path.
      await get();
      await get();
      const before = seenByHapi;
      clock += 61_000;
      const replayed = await get();
      expect(seenByHapi).toBe(before);
      expect(replayed['predgate-served-from']).toBe('catalog');
      expect(replayed['predgate-data-age']).toBe(String(Math.floor((clock - app.catalog.sweptAt('mock')!) / 1000)));
    } finally {
      await app.stop();
    }
  });
});
