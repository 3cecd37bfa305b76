import { fixedClock } from '@predgate/core';
import type { Event } from '@predgate/core';
import { replayAgent } from '@predgate/core/testkit';
import pmxt from 'pmxtjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, gateway, recorded } from './support.js';
import type { Gateway } from './support.js';

const openList = 'the default list: both market kinds by discriminator (boolean dkokXHR3DTw, race gSEpsnQwdXK), open markets only, the largest pot first';
const byId = 'a market by id is one getAccountInfo of its address';
const positions =
  'positions by wallet: UserPosition and RacePosition accounts with the owner at offset 8, then their markets (addresses derived from market_id) in one getMultipleAccounts';

const wallet = 'Fdv3pEdQgiM9giBFe8CFWdvvMr1EmoeP8z8rHkEezUsW';
const vitality = '8L6EjHgTjrqQWJGSo5p3QKHD4zf7SWusqSBr7kcfMKnK';

let app: Gateway;
beforeAll(async () => {
  app = await gateway({
    manifest: { venues: [{ id: 'baozi', package: '@predgate/adapter-baozi', version: '^0.1.0', config: {} }] },
    dispatcher: replayAgent(recorded('baozi', [openList, byId, positions])),
    clock: fixedClock(1_795_316_400_000),
    config: { port: 0, host: '127.0.0.1', catalog: { intervalSeconds: 60, freshForSeconds: 120, concurrency: 1, pageSize: 100 } },
  });
  await app.server.start();
});
afterAll(() => app.stop());

describe('Baozi through the gateway, replayed from its fixtures', () => {
  test('describe lists markets, positions and betting; no book, no cancel, each with the reason', async () => {
    const { data } = await app.json<{ data: { has: Record<string, unknown>; unsupported: Record<string, string> } }>('/api/baozi/describe');
    expect(data.has).toMatchObject({
      fetchEvents: true,
      fetchMarkets: true,
      fetchPositions: true,
      fetchBalance: true,
      fetchOrderBook: false,
      cancelOrder: false,
      createOrder: true,
      fetchOrder: true,
      buildOrder: false,
    });
    expect(data.unsupported.cancelOrder).toContain('irrevocable');
    expect(data.unsupported.buildOrder).toMatch(/^not implemented yet: /);
    expect(data.unsupported.fetchOrderBook).toContain('pari-mutuel');
  });

  let live: Event[];
  test('pmxtjs 2.41 Baozi reads events, markets and positions through the gateway, prices as pool shares', async () => {
    const baozi = new pmxt.Baozi({ baseUrl: app.server.info.uri, pmxtApiKey: apiKey, autoStartServer: false });
    const events = await baozi.fetchEvents();
    // Open markets by pot: 79.85, 43.5, 11.95, 0.65 and 0 SOL.
    expect(events.map((event) => event.id)).toEqual([
      vitality,
      '4WMbTGnAum2jkZUnouV1Ns4iNNsSCAiAfe7YGwBrosDy',
      '6v4ymZJxiKtVKrPuMNE9ZHpe5TfhXFnZrmE2ehg6yofJ',
      'E9ETiFLAVKEppmFsbPpWf1dn1m2FCcRmtGen1UzB9SwX',
      '6tihSJR6hKV4XanVU6hHkTgWotHgYwgZxZj3AoZnHNST',
    ]);
    const markets = await baozi.fetchMarkets({ marketId: vitality });
    // 48.25 / 79.85 SOL on YES.
    expect(markets[0]?.yes?.price).toBeCloseTo(0.604257983719474, 12);
    const held = await baozi.fetchPositions(wallet);
    expect(held.map((position) => [position.outcomeId, position.size])).toEqual([
      [`${vitality}-YES`, 2.5],
      ['3RN1XZ4CrsQtJMzvKyc1MZdtMQ28zuptTXFWk5pSYk2n-YES', 0.4],
      ['3RN1XZ4CrsQtJMzvKyc1MZdtMQ28zuptTXFWk5pSYk2n-NO', 0.1],
      ['4WMbTGnAum2jkZUnouV1Ns4iNNsSCAiAfe7YGwBrosDy-0', 1],
      ['4WMbTGnAum2jkZUnouV1Ns4iNNsSCAiAfe7YGwBrosDy-2', 0.25],
      ['5eguvyudg7hP7ssrnx7yELyBrLEQgfHWxa3FsBVEyvPu-1', 0.6],
    ]);
    ({ data: live } = await app.json<{ data: Event[] }>('/api/baozi/fetchEvents'));
    expect(live).toHaveLength(5);
  });

  test('the catalog ingests every market; the Router finds them under the normalised category; catalog-served equals live', async () => {
    const sweep = await app.catalog.sweep('baozi');
    expect(sweep).toMatchObject({ venue: 'baozi', events: 8 });
    const other = await app.json<{ data: Event[] }>('/v0/events?sourceExchange=baozi&category=Other&limit=50');
    // The five open markets (no 24-hour volume on chain, so their order among equals is the Router's); closed ones only with closed=true.
    expect(other.data.map((event) => event.sourceMetadata?.venueEventId).sort()).toEqual([...live.map((event) => event.id)].sort());
    const all = await app.json<{ data: Event[] }>('/v0/events?sourceExchange=baozi&category=Other&closed=true&limit=50');
    expect(all.data).toHaveLength(8);
    expect(all.data.every((event) => event.category === 'Other')).toBe(true);
    const served = await app.json<{ data: Event[] }>('/api/baozi/fetchEvents');
    expect(served.data).toEqual(live);
  });
});
