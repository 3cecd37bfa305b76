import { fixedClock } from '@predgate/core';
import { replayAgent } from '@predgate/core/testkit';
import pmxt from 'pmxtjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, gateway, recorded } from './support.js';
import type { Gateway } from './support.js';

const bareTicker = 'a bare market ticker is the YES outcome, as the id convention says: fetchOrderBook(market.yes.outcomeId) with no other argument';
const withSide = 'a market ticker with params.side; no depth asked, none sent';

/**
 * The pmxt pattern, `fetchOrderBook(market.yes.outcomeId)`, on Kalshi: the
 * YES outcome's id is the bare market ticker, and it is enough on its own,
 * through the gateway and through pmxtjs 2.41 unchanged.
 */
let app: Gateway;
beforeAll(async () => {
  app = await gateway({
    manifest: { venues: [{ id: 'kalshi', package: '@predgate/adapter-kalshi', version: '^0.1.0', config: {} }] },
    dispatcher: replayAgent(recorded('kalshi', [bareTicker, withSide])),
    clock: fixedClock(1_778_767_500_000),
    config: { port: 0, host: '127.0.0.1' },
  });
  await app.server.start();
});
afterAll(() => app.stop());

describe('a Kalshi outcome id handed out by the gateway is accepted back', () => {
  test('GET /api/kalshi/fetchOrderBook?outcomeId=<bare ticker> is the YES book, the same as with side=yes', async () => {
    const bare = await app.json<{ data: { bids: unknown[]; asks: unknown[] } }>('/api/kalshi/fetchOrderBook?outcomeId=KXFEDDECISION-26JUN-H0');
    const sided = await app.json<{ data: { bids: unknown[]; asks: unknown[] } }>('/api/kalshi/fetchOrderBook?outcomeId=KXFEDDECISION-26JUN-H0&side=yes');
    expect(bare.data.bids.length + bare.data.asks.length).toBeGreaterThan(0);
    expect([bare.data.bids, bare.data.asks]).toEqual([sided.data.bids, sided.data.asks]);
  });

  test('pmxtjs 2.41 Kalshi.fetchOrderBook(yes outcome id) gets the YES book', async () => {
    const kalshi = new pmxt.Kalshi({ baseUrl: app.server.info.uri, pmxtApiKey: apiKey, autoStartServer: false });
    const book = await kalshi.fetchOrderBook('KXFEDDECISION-26JUN-H0');
    const sided = await app.json<{ data: { bids: Array<{ price: number }> } }>('/api/kalshi/fetchOrderBook?outcomeId=KXFEDDECISION-26JUN-H0&side=yes');
    expect(book.bids.map((level) => level.price)).toEqual(sided.data.bids.map((level) => level.price));
  });
});
