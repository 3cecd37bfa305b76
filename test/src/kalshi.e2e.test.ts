import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedClock } from '@predgate/core';
import type { Event } from '@predgate/core';
import { replayAgent } from '@predgate/core/testkit';
import type { FixtureCase } from '@predgate/core/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gateway, recorded, workspace } from './support.js';
import type { Gateway } from './support.js';

const kalshiSweep = [
  "the catalog's all-status sweep, page 1: Kalshi's own cursor comes back",
  'page 2: the open pass ends, closed follows, and the cursor names the settled pass next',
  'page 3: the settled pass, the last; no cursor ends the sweep',
];
const polymarketSweep = ["the catalog's sweep, page 1: every status by keyset, four a page", "the catalog's sweep, page 2: the last page hands out no cursor"];

/** Kalshi demo's open, closed and settled lists, answering a sweep of five events a call. */
function demoSweep(): FixtureCase[] {
  const payload = (name: string) => JSON.parse(readFileSync(join(workspace, 'adapters/kalshi/test/fixtures/payloads/kalshi-demo', name), 'utf8')) as unknown;
  const list = (query: string, body: unknown) => ({
    request: { method: 'GET', url: `https://external-api.demo.kalshi.co/trade-api/v2/events?${query}&with_nested_markets=true` },
    response: { status: 200, body },
  });
  return [
    {
      title: 'demo sweep',
      method: 'fetchEventsPaginated',
      args: [],
      file: 'kalshi.e2e.test.ts',
      kind: 'response',
      exchanges: [
        list('limit=5&status=open', payload('events-page.json')),
        list('limit=3&status=closed', payload('events-closed.json')),
        list('limit=3&status=settled', payload('events-settled.json')),
      ],
    },
  ];
}

let app: Gateway;
beforeAll(async () => {
  const kalshi = recorded('kalshi', [...kalshiSweep, "the venue's metadata object, unmodified", 'an unknown event is EVENT_NOT_FOUND']);
  app = await gateway({
    manifest: {
      venues: [
        { id: 'kalshi', package: '@predgate/adapter-kalshi', version: '^0.1.0', config: {}, catalog: { pageSize: 4 } },
        { id: 'kalshi-demo', package: '@predgate/adapter-kalshi', version: '^0.1.0', config: {}, catalog: { pageSize: 5 } },
        { id: 'polymarket', package: '@predgate/adapter-polymarket', version: '^0.1.0', config: {}, catalog: { pageSize: 4 } },
      ],
    },
    dispatcher: replayAgent([...kalshi, ...demoSweep(), ...recorded('polymarket', polymarketSweep)]),
    clock: fixedClock(Date.UTC(2026, 4, 1)),
  });
});
afterAll(() => app.stop());

describe('Kalshi through the gateway', () => {
  test('GET /api/kalshi/fetchEventMetadata?eventTicker=... returns the venue metadata as data', async () => {
    const [fixture] = recorded('kalshi', ["the venue's metadata object, unmodified"]);
    const response = await app.call({ url: '/api/kalshi/fetchEventMetadata?eventTicker=KXFEDDECISION-26JUN' });
    expect(response.statusCode, response.payload).toBe(200);
    const body = JSON.parse(response.payload) as { success: boolean; data: unknown };
    expect(body.success).toBe(true);
    expect(body.data).toEqual(fixture!.exchanges[0]!.response.body);
  });

  test('without eventTicker it is 400 VALIDATION_ERROR naming it; an unknown ticker is EVENT_NOT_FOUND', async () => {
    const missing = await app.call({ url: '/api/kalshi/fetchEventMetadata' });
    expect(missing.statusCode).toBe(400);
    expect(JSON.parse(missing.payload)).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('eventTicker') } });
    const unknown = await app.call({ url: '/api/kalshi/fetchEventMetadata?eventTicker=NOPE-99' });
    expect(unknown.statusCode).toBe(404);
    expect(JSON.parse(unknown.payload)).toMatchObject({ error: { code: 'EVENT_NOT_FOUND', exchange: 'kalshi' } });
  });

  test.each(['/api/kalshi/fetchAllOrders', '/api/kalshi/fetchOrder?orderId=abc', '/api/kalshi-demo/fetchAllOrders'])(
    '%s without credentials is AUTHENTICATION_ERROR naming the members needed',
    async (url) => {
      const response = await app.call({ url });
      expect(response.statusCode).toBe(401);
      const { error } = JSON.parse(response.payload) as { error: { code: string; message: string; detail: { required: string[] } } };
      expect(error.code).toBe('AUTHENTICATION_ERROR');
      expect(error.message).toContain('apiKey');
      expect(error.message).toContain('privateKey');
      expect(error.detail.required).toEqual(['apiKey', 'privateKey']);
    },
  );
});

describe('the catalog with Kalshi, Kalshi demo and Polymarket', () => {
  test('ingests every venue from replayed traffic, and the Router lists their events side by side by 24h volume', async () => {
    const sweeps = await Promise.all(['kalshi', 'kalshi-demo', 'polymarket'].map((venue) => app.catalog.sweep(venue)));
    expect(sweeps.map((sweep) => sweep.events)).toEqual([expect.any(Number), 3, 6]);
    expect(sweeps[0]!.events).toBeGreaterThan(4);
    const { data, meta } = await app.json<{ data: Event[]; meta: { total: number } }>('/v0/events?closed=true&limit=500');
    expect(meta.total).toBe(sweeps.reduce((sum, sweep) => sum + sweep.events, 0));
    expect(new Set(data.map((event) => event.sourceExchange))).toEqual(new Set(['kalshi', 'kalshi-demo', 'polymarket']));
    const volumes = data.map((event) => event.volume24h);
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
    // Side by side: the order interleaves venues rather than listing one after the other.
    const runs = data.filter((event, index) => index === 0 || event.sourceExchange !== data[index - 1]!.sourceExchange).length;
    expect(runs).toBeGreaterThan(3);
    const kalshiOnly = await app.json<{ data: Event[] }>('/v0/events?exchange=kalshi&closed=true&limit=500');
    expect(kalshiOnly.data.every((event) => event.sourceExchange === 'kalshi' && event.markets.every((market) => market.sourceExchange === 'kalshi'))).toBe(
      true,
    );
  });
});
