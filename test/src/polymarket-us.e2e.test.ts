import { fixedClock } from '@predgate/core';
import type { Event } from '@predgate/core';
import { replayAgent } from '@predgate/core/testkit';
import pmxt from 'pmxtjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, gateway, recorded } from './support.js';
import type { Gateway } from './support.js';

const listing = 'open events: closed=false&archived=false (active=true returns stale backfill), offset paging';
const book = 'the long book, unwrapped from marketData (pmxt read it at the top level and got an empty book)';
const slug = 'tec-mlb-nlchamp-2026-09-27-mil';

let app: Gateway;
beforeAll(async () => {
  app = await gateway({
    manifest: { venues: [{ id: 'polymarket_us', package: '@predgate/adapter-polymarket-us', version: '^0.1.0', config: {}, catalog: { status: 'active' } }] },
    dispatcher: replayAgent(recorded('polymarket-us', [listing, book])),
    clock: fixedClock(1_788_000_000_000),
    config: { port: 0, host: '127.0.0.1', catalog: { intervalSeconds: 60, freshForSeconds: 120, concurrency: 1, pageSize: 100 } },
  });
  await app.server.start();
});
afterAll(() => app.stop());

describe('Polymarket US through the gateway, replayed from its fixtures', () => {
  let live: Event[];
  test('pmxtjs 2.41 PolymarketUS reads events and the long book through the gateway', async () => {
    const client = new pmxt.PolymarketUS({ baseUrl: app.server.info.uri, pmxtApiKey: apiKey, autoStartServer: false });
    const events = await client.fetchEvents();
    expect(events.map((event) => event.id)).toEqual(['mlb-mil-chc-2026-09-07', 'mlb-nlchamp-2026', 'mlb-stl-pit-2026-09-05']);
    const longBook = await client.fetchOrderBook(`${slug}:long`);
    expect(longBook.bids[0]?.price).toBe(0.265);
    ({ data: live } = await app.json<{ data: Event[] }>('/api/polymarket_us/fetchEvents'));
  });

  test('the short book through the gateway is the mirror, not the long book', async () => {
    const { data } = await app.json<{ data: { bids: Array<{ price: number }>; asks: Array<{ price: number }> } }>(
      `/api/polymarket_us/fetchOrderBook?id=${slug}:short`,
    );
    expect([data.bids[0]!.price, data.asks[0]!.price]).toEqual([0.618, 0.735]);
  });

  test('the catalog ingests the open events under Sports; catalog-served equals live', async () => {
    const sweep = await app.catalog.sweep('polymarket_us');
    expect(sweep).toMatchObject({ venue: 'polymarket_us', events: 3 });
    const sports = await app.json<{ data: Event[] }>('/v0/events?sourceExchange=polymarket_us&category=Sports&closed=true&limit=50');
    expect(sports.data).toHaveLength(3);
    const served = await app.json<{ data: Event[] }>('/api/polymarket_us/fetchEvents');
    expect(served.data).toEqual(live);
  });
});

test('an order control Polymarket US does not have (reduceOnly) is refused unsent with VALIDATION_ERROR naming the venue', async () => {
  const order = { marketId: slug, outcomeId: `${slug}:long`, side: 'buy', type: 'limit', amount: 1, price: 0.3, reduceOnly: true };
  const response = await app.call({
    method: 'POST',
    url: '/api/polymarket_us/createOrder',
    payload: { args: [order], credentials: { apiKey: '9f2c1b7e-4a63-4d21-8e5f-0b7a3c9d1e42', privateKey: Buffer.alloc(32, 7).toString('base64') } },
  });
  const answer = JSON.parse(response.payload) as { error: { code: string; message: string; detail: Record<string, unknown> } };
  expect(response.statusCode).toBe(400);
  expect(answer.error).toMatchObject({ code: 'VALIDATION_ERROR', detail: { unsupported: ['reduceOnly'] } });
  expect(answer.error.message).toContain('polymarket_us');
});
