import { fixedClock } from '@predgate/core';
import type { Event } from '@predgate/core';
import { replayAgent } from '@predgate/core/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gateway, recorded } from './support.js';
import type { Gateway } from './support.js';

const openList = 'the default list: open markets, 200 a page';
const everyStatus = 'every status: no status filter at the venue';
const ladder = 'an N-way market by id: the research prices its rungs';

let app: Gateway;
beforeAll(async () => {
  app = await gateway({
    manifest: { venues: [{ id: 'hunch', package: '@predgate/adapter-hunch', version: '^0.1.0', config: {} }] },
    dispatcher: replayAgent(recorded('hunch', [openList, everyStatus, ladder])),
    clock: fixedClock(1_787_227_500_000),
    config: { catalog: { intervalSeconds: 60, freshForSeconds: 120, concurrency: 1, pageSize: 100 } },
  });
});
afterAll(() => app.stop());

describe('Hunch through the gateway, replayed from its fixtures', () => {
  test('describe lists the pool reads and betting; the order book and cancels are refused with the reason', async () => {
    const { data } = await app.json<{ data: { has: Record<string, unknown>; unsupported: Record<string, string> } }>('/api/hunch/describe');
    expect(data.has).toMatchObject({
      fetchEvents: true,
      fetchTrades: true,
      fetchOHLCV: true,
      fetchPositions: true,
      createOrder: true,
      fetchOrderBook: false,
      cancelOrder: false,
    });
    expect(data.unsupported.fetchOrderBook).toContain('parimutuel');
  });

  let live: Event[];
  test('live: the open markets, each its own event, 24h volume first; an N-way market by id priced from its research', async () => {
    ({ data: live } = await app.json<{ data: Event[] }>('/api/hunch/fetchEvents'));
    expect(live.map((event) => event.id)).toEqual(['hunch-10m', 'bnkr-mcap-ladder-sep-30-2026', 'eth-up-or-down-aug-31']);
    const { data: markets } = await app.json<{ data: Array<{ outcomes: Array<{ price?: number }> }> }>(
      '/api/hunch/fetchMarkets?marketId=bnkr-mcap-ladder-sep-30-2026',
    );
    expect(markets[0]?.outcomes.map((outcome) => outcome.price)).toEqual([0.25, 0.55, 0.2]);
  });

  test('the catalog ingests every market; the Router finds the closed event market under Culture (closed=true); catalog-served equals live', async () => {
    const sweep = await app.catalog.sweep('hunch');
    expect(sweep).toMatchObject({ venue: 'hunch', events: 4 });
    const culture = await app.json<{ data: Event[] }>('/v0/events?sourceExchange=hunch&category=culture&closed=true&limit=50');
    expect(culture.data.map((event) => event.sourceMetadata?.venueEventId)).toEqual(['debate-night-ko']);
    const served = await app.json<{ data: Event[] }>('/api/hunch/fetchEvents');
    expect(served.data).toEqual(live);
  });
});
