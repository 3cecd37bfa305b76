import { afterAll, beforeAll, expect, test } from 'vitest';
import { testApp, thirdPartyProject } from './helpers.js';
import type { TestApp } from './helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await testApp({
    manifest: { venues: [{ id: 'shrinking', package: 'predgate-adapter-shrinking', version: '1.x', config: { sizes: [50, 20, 20] } }] },
    searchRoots: [thirdPartyProject],
  });
});
afterAll(() => app.stop());

interface Status {
  venue: string;
  lastSweep: { events: number; ageSeconds: number } | null;
  heldSweep: { sweep: { events: number }; reason: string } | null;
}
const status = async () => (JSON.parse((await app.call({ url: '/v0/status' })).payload) as { data: Status[] }).data[0]!;
const routerTotal = async () =>
  (JSON.parse((await app.call({ url: '/v0/events?sourceExchange=shrinking&limit=1' })).payload) as { meta: { total: number } }).meta.total;

test('/v0/status shows a held sweep beside the one still served, then the confirmed one', async () => {
  await app.catalog.sweep('shrinking');
  expect(await routerTotal()).toBe(50);

  await app.catalog.sweep('shrinking');
  const held = await status();
  expect(held.lastSweep).toMatchObject({ events: 50, ageSeconds: expect.any(Number) });
  expect(held.heldSweep).toMatchObject({ sweep: { events: 20 }, reason: expect.stringContaining('60%') });
  expect(await routerTotal()).toBe(50);

  await app.catalog.sweep('shrinking');
  const confirmed = await status();
  expect(confirmed.lastSweep).toMatchObject({ events: 20 });
  expect(confirmed.heldSweep).toBeNull();
  expect(await routerTotal()).toBe(20);
});
