import { fixedClock } from '@predgate/core';
import type { Event, PriceCandle, Trade } from '@predgate/core';
import { replayAgent } from '@predgate/core/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gateway, recorded } from './support.js';
import type { Gateway } from './support.js';

const defaultList = 'the default market list: 20 at most, one market per pool; every deployed pool still trading read on-chain in one batch';
const top3 =
  "the default event list: pools still trading (New, Live, Closing_Soon, Pending_Finalization, or no status) in the catalog's order (24-hour volume, all 0 at Rain, then id), so the whole list is read; prices and totals of the three read in one eth_call batch";
const everyStatus = 'every status (the catalog sweep): no status filter, one page of 100; closed pools are not read on-chain (their result settles the prices)';
const trades = 'option trades: AMM buys priced at collateral per share (pmxt said 0), fills at their order price, taker side, newest first';
const candles = 'pmxt #2245: candle volume is the collateral traded in the bucket, not 0';

const btc = 'rain:6aa7cae7dffaf5aa153f7d87';

let app: Gateway;
beforeAll(async () => {
  app = await gateway({
    manifest: { venues: [{ id: 'rain', package: '@predgate/adapter-rain', version: '^0.1.0', config: { subgraphApiKey: 'test-subgraph-key' } }] },
    dispatcher: replayAgent(recorded('rain', [defaultList, top3, everyStatus, trades, candles])),
    clock: fixedClock(1_795_316_400_000),
    config: { port: 0, host: '127.0.0.1', catalog: { intervalSeconds: 60, freshForSeconds: 120, concurrency: 1, pageSize: 100 } },
  });
  await app.server.start();
});
afterAll(() => app.stop());

describe('Rain through the gateway, replayed from its fixtures', () => {
  test('describe lists events, trades and candles; books and trading are absent with the reason', async () => {
    const { data } = await app.json<{ data: { has: Record<string, unknown>; unsupported: Record<string, string> } }>('/api/rain/describe');
    expect(data.has).toMatchObject({
      fetchEvents: true,
      fetchMarkets: true,
      fetchTrades: true,
      fetchOHLCV: true,
      fetchPositions: true,
      fetchMyTrades: true,
      fetchOrderBook: false,
      createOrder: false,
    });
    expect(data.unsupported.createOrder).toContain('wallet');
    expect(data.unsupported.fetchOrderBook).toContain('firstBuyOrderPrice');
  });

  let live: Event[];
  test('events priced from the chain, trades priced (not 0) and candles with volume, through the pass-through', async () => {
    const { data: events } = await app.json<{ data: Event[] }>('/api/rain/fetchEvents');
    expect(events.map((event) => event.id)).toEqual([
      btc,
      'rain:6abf65b824801c4f3f7d6220',
      'rain:6ad1f0a2c4e8b7d9a3f5c2e1',
      'rain:6ad68e6753006f3ddd8933a8',
      'rain:6ae9cce905f9ef3bb9820158',
      'rain:6b007153ee39d839f5c0bd16',
    ]);
    expect(events[0]!.markets[0]!.outcomes[0]!.price).toBe(0.3819472013442199);
    const post = async <T>(method: string, args: unknown[]) => {
      const response = await app.call({ method: 'POST', url: `/api/rain/${method}`, payload: { args } });
      expect(response.statusCode).toBe(200);
      return JSON.parse(response.payload) as { data: T };
    };
    const tape = await post<Trade[]>('fetchTrades', [`${btc}:0`, { limit: 10 }]);
    expect(tape.data.map((trade) => trade.price)).toEqual([25_000_000 / 65_453_000, 0.38000013680004924, 0.38]);
    const bars = await post<PriceCandle[]>('fetchOHLCV', [`${btc}:0`, { resolution: '1h', limit: 5 }]);
    expect(bars.data.map((bar) => bar.volume)).toEqual([3.8, 1, 25]);
    ({ data: live } = await app.json<{ data: Event[] }>('/api/rain/fetchEvents?limit=3'));
    expect(live).toHaveLength(3);
  });

  test('the catalog ingests every pool; the Router finds the tennis and football pools under Sports; catalog-served equals live', async () => {
    const sweep = await app.catalog.sweep('rain');
    expect(sweep).toMatchObject({ venue: 'rain', events: 9 });
    const sports = await app.json<{ data: Event[] }>('/v0/events?sourceExchange=rain&category=Sports&limit=50');
    expect(sports.data.map((event) => event.sourceMetadata?.venueEventId).sort()).toEqual(['rain:6abf65b824801c4f3f7d6220', 'rain:6ae9cce905f9ef3bb9820158']);
    const served = await app.json<{ data: Event[] }>('/api/rain/fetchEvents?limit=3');
    expect(served.data).toEqual(live);
  });
});
