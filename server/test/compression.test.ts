import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await testApp();
  await app.catalog.sweep('mock');
});
afterAll(() => app.stop());

const get = (url: string, encoding?: string) => app.call({ url, headers: encoding ? { 'accept-encoding': encoding } : {} });
const decoded = (response: { rawPayload: Buffer; headers: Record<string, unknown> }) => {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'gzip') return gunzipSync(response.rawPayload).toString('utf8');
  if (encoding === 'br') return brotliDecompressSync(response.rawPayload).toString('utf8');
  return response.rawPayload.toString('utf8');
};

describe('answers are compressed as the client asks', () => {
  test.each(['gzip', 'br'])('a Router page in %s decodes to the same bytes, with vary and content-length right', async (encoding) => {
    const plain = await get('/v0/events?limit=50');
    const packed = await get('/v0/events?limit=50', encoding);
    expect(packed.headers['content-encoding']).toBe(encoding);
    expect(String(packed.headers.vary)).toContain('accept-encoding');
    expect(Number(packed.headers['content-length'])).toBe(packed.rawPayload.length);
    expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(decoded(packed)).toBe(plain.payload);
  });

  test.each([
    ['a Router page', '/v0/events?limit=50'],
    ['a catalog-served page', '/api/mock/fetchEvents?limit=20'],
    ['a live answer', '/api/mock/fetchEvents?limit=20&sort=liquidity'],
  ])('%s sent uncompressed to a client that asked for no coding says it varies by accept-encoding; a small answer does not', async (_, url) => {
    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(4096);
    expect(String(plain.headers.vary)).toContain('accept-encoding');
    const small = await get('/v0/events?limit=1');
    expect(small.rawPayload.length).toBeLessThan(4096);
    expect(small.headers.vary).toBeUndefined();
  });

  test("a Router page or event for a client taking gzip among others is stitched from its events' gzip pieces, to exactly the plain bytes", async () => {
    const total = (JSON.parse((await get('/v0/events?limit=1')).payload) as { meta: { total: number } }).meta.total;
    const eventIds = (JSON.parse((await get('/v0/events?limit=20')).payload) as { data: Array<{ id: string }> }).data.map((event) => event.id);
    const urls = [
      ...Array.from({ length: 12 }, () => `/v0/events?limit=${1 + Math.floor(Math.random() * 60)}&offset=${Math.floor(Math.random() * total)}`),
      ...eventIds.slice(0, 4).map((id) => `/v0/events/${id}`),
    ];
    for (const url of urls) {
      const plain = await get(url);
      const packed = await get(url, 'gzip, deflate, br');
      expect(plain.statusCode).toBe(200);
      if (plain.rawPayload.length < 4096) {
        expect(packed.headers['content-encoding']).toBeUndefined();
        continue;
      }
      expect(packed.headers['content-encoding']).toBe('gzip');
      expect(Number(packed.headers['content-length'])).toBe(packed.rawPayload.length);
      // Stitched, not compressed whole: zlib's own gzip names the OS in its header's last byte, the stitched one says unknown.
      expect(packed.rawPayload[9]).toBe(0xff);
      expect(gunzipSync(packed.rawPayload).equals(plain.rawPayload)).toBe(true);
    }
  });

  test('the same page asked again is the same compressed bytes, made once per catalog generation', async () => {
    const first = await get('/v0/events?limit=20&offset=5', 'gzip');
    const again = await get('/v0/events?limit=20&offset=5', 'gzip');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const generation = app.catalog.generation;
    await app.catalog.sweep('mock');
    expect(app.catalog.generation).toBe(generation + 1);
    expect(decoded(await get('/v0/events?limit=20&offset=5', 'gzip'))).toBe((await get('/v0/events?limit=20&offset=5')).payload);
  });

  test('a page already compressed is sent without asking the catalog again; a new generation or an uncompressed request asks it', async () => {
    const store = app.catalog.store;
    const asked = { events: 0 };
    const events = store.events.bind(store);
    store.events = async (query) => {
      asked.events += 1;
      return events(query);
    };
    try {
      for (const url of ['/v0/events?limit=30&offset=2', '/api/mock/fetchEvents?limit=30&offset=2']) {
        asked.events = 0;
        const first = await get(url, 'br');
        const again = await get(url, 'br');
        expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
        expect(asked.events).toBe(1);
        await get(url);
        expect(asked.events).toBe(2);
        await app.catalog.sweep('mock');
        expect(decoded(await get(url, 'br'))).toBe((await get(url)).payload);
        expect(asked.events).toBe(4);
      }
    } finally {
      store.events = events;
    }
  });

  test("catalog-served pass-through event answers for a client taking gzip are stitched from the events' gzip pieces", async () => {
    const ids = (JSON.parse((await get('/api/mock/fetchEvents?limit=4&offset=7')).payload) as { data: Array<{ id: string }> }).data.map((event) => event.id);
    let stitched = 0;
    for (const url of ['/api/mock/fetchEvents?limit=20', '/api/mock/fetchEvents?limit=3&offset=11', ...ids.map((id) => `/api/mock/fetchEvent?eventId=${id}`)]) {
      const plain = await get(url);
      expect(plain.headers['predgate-served-from']).toBe('catalog');
      const packed = await get(url, 'gzip, deflate, br');
      if (plain.rawPayload.length < 4096) {
        expect(packed.headers['content-encoding']).toBeUndefined();
        continue;
      }
      expect(packed.headers['content-encoding']).toBe('gzip');
      // Stitched (the header's OS byte says unknown), not compressed whole.
      expect(packed.rawPayload[9]).toBe(0xff);
      expect(gunzipSync(packed.rawPayload).equals(plain.rawPayload)).toBe(true);
      stitched += 1;
    }
    expect(stitched).toBeGreaterThan(2);
  });

  test.each(['gzip', 'br'])('live answers are compressed by the server in %s, in one piece with their length', async (encoding) => {
    // Sorted by liquidity, the list is not the catalog's: the venue answers it.
    const packed = await get('/api/mock/fetchEvents?limit=20&sort=liquidity', encoding);
    expect(packed.headers['content-encoding']).toBe(encoding);
    expect(packed.headers['predgate-served-from']).toBe('live');
    expect(Number(packed.headers['content-length'])).toBe(packed.rawPayload.length);
    expect(JSON.parse(decoded(packed))).toMatchObject({ success: true, data: expect.any(Array) });
  });

  test('a live answer of a few KiB is sent as it is: compressing it per request costs more time than it saves', async () => {
    const book = await get('/api/mock/fetchOrderBook?outcomeId=mock-e1-m0-0', 'gzip, deflate, br');
    expect(book.payload.length).toBeGreaterThan(1024);
    expect(book.payload.length).toBeLessThan(4096);
    expect(book.headers['content-encoding']).toBeUndefined();
  });

  test('a catalog answer of a few KiB is sent as it is too, and one just larger compressed with an encoder sized to it', async () => {
    const market = await app.call({
      method: 'POST',
      url: '/api/mock/fetchMarket',
      payload: { args: [{ marketId: 'mock-e3-m0' }] },
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(market.statusCode).toBe(200);
    expect(market.payload.length).toBeGreaterThan(1024);
    expect(market.payload.length).toBeLessThan(4096);
    expect(market.headers['content-encoding']).toBeUndefined();
    const page = (limit: number, encoding?: string) => get(`/v0/events?limit=${limit}&offset=3`, encoding);
    let limit = 1;
    while ((await page(limit)).rawPayload.length < 4096) limit += 1;
    for (const encoding of ['gzip', 'br']) {
      const packed = await page(limit, encoding);
      expect(packed.headers['content-encoding']).toBe(encoding);
      expect(decoded(packed)).toBe((await page(limit)).payload);
    }
  });

  test('a small answer is sent as it is: compressing it would cost more than it saves', async () => {
    const small = await get('/v0/events?q=no-such-event-anywhere', 'gzip');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.payload)).toMatchObject({ data: [], meta: { total: 0 } });
  });
});
