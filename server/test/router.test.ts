import type { Event } from '@predgate/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMongoWireServer } from '../../catalog/test/mongo-wire/index.js';
import { apiKey, now, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface RouterPage {
  data: Event[];
  meta: { count: number; limit: number; offset: number; total: number };
}

let app: TestApp;
beforeAll(async () => {
  app = await testApp();
  await app.catalog.sweep('mock');
});
afterAll(() => app.stop());

const page = async (query: string): Promise<RouterPage> => {
  const response = await app.call({ url: `/v0/events${query}` });
  expect(response.statusCode, response.payload).toBe(200);
  return JSON.parse(response.payload) as RouterPage;
};

describe('GET /v0/events', () => {
  test('searches title and slug, sorted by 24h volume, with markets and outcomes nested and meta', async () => {
    const { data, meta } = await page('?q=BITCOIN&limit=3');
    expect(data.length).toBeGreaterThan(0);
    expect(meta).toEqual({ count: data.length, limit: 3, offset: 0, total: expect.any(Number) });
    expect(meta.total).toBeGreaterThanOrEqual(data.length);
    const volumes = data.map((event) => event.volume24h);
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
    for (const event of data) {
      expect(`${event.title} ${event.slug}`.toLowerCase()).toContain('bitcoin');
      expect(event.id).toMatch(uuid);
      expect(event.sourceExchange).toBe('mock');
      expect(event.sourceMetadata?.venueEventId).toMatch(/^mock-e\d+$/);
      expect(event.markets.length).toBeGreaterThan(0);
      for (const market of event.markets) {
        expect(market.eventId).toBe(event.id);
        expect(market.sourceExchange).toBe('mock');
        expect(market.outcomes.length).toBeGreaterThanOrEqual(2);
        expect(market).not.toHaveProperty('yes');
        expect(market).not.toHaveProperty('no');
        expect(market).not.toHaveProperty('up');
        expect(market).not.toHaveProperty('down');
      }
    }
  });

  test('defaults to 50 open events; pages are stable slices of one order', async () => {
    const first = await page('');
    expect(first.meta).toMatchObject({ count: 50, limit: 50, offset: 0 });
    const ids = first.data.map((event) => event.id);
    const paged = [...(await page('?limit=20')).data, ...(await page('?limit=20&offset=20')).data, ...(await page('?limit=10&offset=40')).data];
    expect(paged.map((event) => event.id)).toEqual(ids);
    const all = await page('?closed=true&limit=500');
    expect(all.meta.total).toBe(300);
    expect(first.meta.total).toBeLessThan(300);
  });

  test.each([
    ['true', 300],
    ['1', 300],
    ['yes', 300],
    ['false', 'open'],
    ['0', 'open'],
    ['no', 'open'],
  ])('closed=%s', async (value, expected) => {
    const { meta } = await page(`?closed=${value}&limit=1`);
    const open = (await page('?limit=1')).meta.total;
    expect(meta.total).toBe(expected === 'open' ? open : expected);
  });

  test('filters by venue (sourceExchange or exchange) and by normalised category', async () => {
    expect((await page('?sourceExchange=mock&limit=1')).meta.total).toBe((await page('?limit=1')).meta.total);
    expect((await page('?exchange=polymarket')).meta.total).toBe(0);
    const economics = await page('?category=Economics&limit=100');
    expect(economics.data.length).toBeGreaterThan(0);
    expect(economics.data.every((event) => event.category === 'Economics' && event.sourceMetadata?.venueCategory === 'Economy')).toBe(true);
    // One meaning of category on every Router surface: a venue's word or any case of ours finds the normalised category.
    expect((await page('?category=economics&limit=100')).meta.total).toBe(economics.meta.total);
    expect((await page('?category=Economy&limit=100')).meta.total).toBe(economics.meta.total);
  });

  test('/v0/events and /api/router/fetchEvents answer the same events for the same search', async () => {
    const v0 = await page('?category=crypto&q=will&limit=7');
    const response = await app.call({ url: '/api/router/fetchEvents?category=crypto&query=will&limit=7' });
    const api = JSON.parse(response.payload) as { data: Array<{ id: string }> };
    expect(api.data.map((event) => event.id)).toEqual(v0.data.map((event) => event.id));
  });

  test.each([
    ['?limit=0', 'limit'],
    ['?limit=501', 'limit'],
    ['?limit=ten', 'limit'],
    ['?offset=-1', 'offset'],
    ['?closed=maybe', 'closed'],
    ['?verbose=1', 'verbose'],
    ['?q=a&query=b', 'q'],
  ])('%s is 400 VALIDATION_ERROR naming %s, in the Router error body', async (query, parameter) => {
    const response = await app.call({ url: `/v0/events${query}` });
    expect(response.statusCode).toBe(400);
    const body = JSON.parse(response.payload) as { error: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(['error']);
    expect(Object.keys(body.error).sort()).toEqual(['code', 'detail', 'message', 'retryable']);
    expect(body.error).toMatchObject({ code: 'VALIDATION_ERROR', retryable: false });
    expect(body.error.message).toContain(parameter);
  });

  test('needs an API key', async () => {
    const response = await app.server.inject({ url: '/v0/events' });
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.payload)).toEqual({ error: { code: 'INVALID_API_KEY', message: expect.any(String), retryable: false, detail: null } });
  });
});

describe('GET /v0/events/{id}', () => {
  test('one event by its UUID', async () => {
    const [first] = (await page('?limit=1')).data;
    const response = await app.call({ url: `/v0/events/${first!.id}` });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.payload)).toEqual({ data: first });
  });

  test('an id that is not a UUID is 400; an unknown UUID is 404 EVENT_NOT_FOUND', async () => {
    const bad = await app.call({ url: '/v0/events/mock-e1' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.payload).error).toMatchObject({ code: 'VALIDATION_ERROR' });
    const unknown = await app.call({ url: '/v0/events/00000000-0000-5000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
    expect(JSON.parse(unknown.payload)).toEqual({ error: { code: 'EVENT_NOT_FOUND', message: expect.any(String), retryable: false, detail: null } });
  });
});

describe('GET /v0/status', () => {
  test('lists each venue with its adapter, last sweep and whether pass-through is catalog-served', async () => {
    const response = await app.call({ url: '/v0/status' });
    const [mock] = (JSON.parse(response.payload) as { data: Array<Record<string, unknown>> }).data;
    expect(mock).toMatchObject({
      venue: 'mock',
      enabled: true,
      package: '@predgate/adapter-mock',
      version: '0.1.0',
      lastSweep: { venue: 'mock', events: 300, ageSeconds: 0, finishedAt: now },
      lastError: null,
      sweeping: false,
      catalogServed: true,
    });
  });
});

describe('/api/router: the catalog through the pass-through surface', () => {
  test("pmxt's POST /api/router/fetchEvents with args answers catalog events with UUIDs, in the envelope", async () => {
    const response = await app.call({ method: 'POST', url: '/api/router/fetchEvents', payload: { args: [{ query: 'bitcoin', limit: 5 }] } });
    expect(response.statusCode).toBe(200);
    const { success, data } = JSON.parse(response.payload) as { success: boolean; data: Event[] };
    expect(success).toBe(true);
    expect(data.length).toBeGreaterThan(0);
    for (const event of data) {
      expect(event.id).toMatch(uuid);
      expect(event.sourceExchange).toBe('mock');
      for (const market of event.markets) {
        expect(market.sourceExchange).toBe('mock');
        expect(market.eventId).toBe(event.id);
        if (market.outcomes.length === 2)
          expect(market.yes?.outcomeId).toBe(market.outcomes.find((outcome) => outcome.outcomeId === market.yes?.outcomeId)?.outcomeId);
      }
    }
  });

  test('fetchEvent by UUID, fetchMarkets and fetchMarket across venues', async () => {
    const [event] = (await page('?limit=1')).data;
    const one = JSON.parse((await app.call({ url: `/api/router/fetchEvent?eventId=${event!.id}` })).payload);
    expect(one.data.id).toBe(event!.id);
    const market = event!.markets[0]!;
    const markets = JSON.parse((await app.call({ url: `/api/router/fetchMarkets?eventId=${event!.id}&limit=50` })).payload);
    expect(markets.data.map((item: { marketId: string }) => item.marketId)).toEqual(expect.arrayContaining(event!.markets.map((item) => item.marketId)));
    const found = JSON.parse((await app.call({ url: `/api/router/fetchMarket?marketId=${market.marketId}` })).payload);
    expect(found.data).toMatchObject({ marketId: market.marketId, eventId: event!.id, sourceExchange: 'mock' });
    const missing = await app.call({ url: '/api/router/fetchEvent?eventId=nope' });
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.payload)).toMatchObject({ success: false, error: { code: 'EVENT_NOT_FOUND', exchange: 'router' } });
  });

  test('methods the router cannot serve are NOT_SUPPORTED; describe says what it can', async () => {
    const book = await app.call({ url: '/api/router/fetchOrderBook?outcomeId=x' });
    expect(book.statusCode).toBe(501);
    expect(JSON.parse(book.payload)).toMatchObject({ success: false, error: { code: 'NOT_SUPPORTED', exchange: 'router' } });
    const described = JSON.parse((await app.call({ url: '/api/router/describe' })).payload);
    expect(described.data).toMatchObject({ id: 'router', has: { fetchEvents: true, fetchMarket: true, createOrder: false } });
    const sorted = await app.call({ url: '/api/router/fetchEvents?sort=newest' });
    expect(sorted.statusCode).toBe(400);
  });
});

describe('a catalog that cannot be reached', () => {
  test('answers the Router with 503 CATALOG_UNAVAILABLE, retryable', async () => {
    const database = await startMongoWireServer();
    const broken = await testApp({ config: { catalogUrl: `${database.uri.replace('/?', '/predgate?')}&serverSelectionTimeoutMS=300` } });
    try {
      await broken.catalog.sweep('mock');
      expect((await broken.call({ url: '/v0/events?limit=1' })).statusCode).toBe(200);
      await database.close();
      // A page not already kept for this catalog generation must be read from the store.
      const response = await broken.call({ url: '/v0/events?limit=2' });
      expect(response.statusCode).toBe(503);
      expect(JSON.parse(response.payload)).toEqual({ error: { code: 'CATALOG_UNAVAILABLE', message: expect.any(String), retryable: true, detail: null } });
      // The pass-through does not need the catalog: it asks the venue.
      expect((await broken.call({ url: '/api/mock/fetchEvents?limit=2' })).statusCode).toBe(200);
      const failedReads = () => broken.logs.filter((line) => line.includes('catalog read failed')).length;
      expect(failedReads()).toBe(1);
      // Once a read has failed, calls go to the venue at once for a while, not each waiting on the database first.
      expect((await broken.call({ url: '/api/mock/fetchEvents?limit=3' })).statusCode).toBe(200);
      expect(failedReads()).toBe(1);
    } finally {
      await broken.server.stop();
      await broken.catalog.stop();
    }
  });
});

test('the API key is accepted by the Router as by the pass-through', async () => {
  expect((await app.server.inject({ url: '/v0/events?limit=1', headers: { 'x-api-key': apiKey } })).statusCode).toBe(200);
});
