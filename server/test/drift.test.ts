import { afterAll, beforeAll, expect, test } from 'vitest';
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
