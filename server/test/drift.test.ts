import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testApp, thirdPartyProject } from './helpers.js';
import type { TestApp } from './helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await testApp({
    manifest: { venues: [{ id: 'drifting', package: 'predgate-adapter-drifting', version: '1.x', config: {} }] },
    searchRoots: [thirdPartyProject],
  });
});
afterAll(() => app.stop());

test('a venue answer refused for its shape is counted per venue, endpoint and field, and the last ones show in /v0/status', async () => {
  const live = await app.call({ url: '/api/drifting/fetchEvents?limit=1' });
  expect(live.statusCode).toBe(503);
  expect(JSON.parse(live.payload)).toMatchObject({ error: { code: 'EXCHANGE_NOT_AVAILABLE', detail: { endpoint: 'GET /events', field: 'events.1.title' } } });
  await app.catalog.sweep('drifting').catch(() => undefined);

  const metrics = (await app.call({ url: '/metrics' })).payload;
  expect(metrics).toContain('predgate_venue_drift_total{venue="drifting",endpoint="GET /events",field="events.*.title"} 2');
  const status = JSON.parse((await app.call({ url: '/v0/status' })).payload) as {
    data: Array<{ drift: Array<{ field: string; endpoint: string }>; lastError: { code: string } }>;
  };
  expect(status.data[0]!.drift.map((report) => report.field)).toEqual(['events.2.title', 'events.1.title']);
  expect(status.data[0]!.lastError).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE' });
});

describe('one odd item never costs the page', () => {
  let odd: TestApp;
  beforeAll(async () => {
    odd = await testApp({
      manifest: { venues: [{ id: 'odd', package: 'predgate-adapter-odd-items', version: '1.x', config: {} }] },
      searchRoots: [thirdPartyProject],
    });
  });
  afterAll(() => odd.stop());

  test('an item the adapter left out, and one outside the model, are counted as drift with their ids; the rest is served', async () => {
    const live = await odd.call({ url: '/api/odd/fetchEvents?limit=10' });
    expect(live.statusCode).toBe(200);
    expect((JSON.parse(live.payload) as { data: Array<{ id: string }> }).data.map((event) => event.id)).toEqual(['first', 'last']);

    const metrics = (await odd.call({ url: '/metrics' })).payload;
    expect(metrics).toContain('predgate_venue_drift_total{venue="odd",endpoint="GET /events",field="events.*.title"} 1');
    expect(metrics).toContain('predgate_venue_drift_total{venue="odd",endpoint="fetchEvents answer",field="*.markets.*.outcomes.*.priceChange24h"} 1');
    const status = JSON.parse((await odd.call({ url: '/v0/status' })).payload) as { data: Array<{ drift: Array<{ item?: string; field: string }> }> };
    expect(status.data[0]!.drift.map(({ item, field }) => ({ item, field }))).toEqual([
      { item: 'percent', field: '1.markets.0.outcomes.0.priceChange24h' },
      { item: 'unreadable', field: 'events.1.title' },
    ]);
  });

  test('a catalog sweep keeps the good events and reports the others', async () => {
    const sweep = await odd.catalog.sweep('odd');
    expect(sweep).toMatchObject({ events: 2 });
  });
});
