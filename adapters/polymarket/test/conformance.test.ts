import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { runConformanceSuite, runRoundTripLaw } from '@predgate/core/testkit';
import type { ConformanceCase } from '@predgate/core/testkit';
import { afterAll, test } from 'vitest';
import { WebSocketServer } from 'ws';
import { createReplayingAdapter } from './support.js';

/**
 * The market channel replayed on 127.0.0.1 for the streaming methods: each
 * subscribed token gets the recorded snapshot (as its own book) and a print.
 */
const recordedBook = JSON.parse(readFileSync(new URL('../../../archive/test/fixtures/ws-book-2.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const marketChannel = new WebSocketServer({ host: '127.0.0.1', port: 0 });
await once(marketChannel, 'listening');
marketChannel.on('connection', (socket) =>
  socket.on('message', (data) => {
    const text = data.toString();
    if (text === 'PING') return;
    for (const assetId of (JSON.parse(text) as { assets_ids: string[] }).assets_ids) {
      socket.send(JSON.stringify([{ ...recordedBook, asset_id: assetId }]));
      socket.send(
        JSON.stringify({
          event_type: 'last_trade_price',
          asset_id: assetId,
          market: recordedBook.market,
          price: '0.004',
          size: '25',
          side: 'SELL',
          timestamp: '1786728440000',
        }),
      );
    }
  }),
);
afterAll(() => new Promise((resolve) => marketChannel.close(resolve)));
const streamConfig = { ws: `ws://127.0.0.1:${(marketChannel.address() as { port: number }).port}` };

/**
 * The test kit's conformance checks on every method the adapter claims, with
 * the venue served from the recorded fixtures (see fixtures/). Cases name
 * fixture ids, since the kit's discovery would ask for unrecorded pages.
 */
const yes = '54533043819946592547517511176940999955633860128497669742211153063842200957669';
const no = '87854174148074652060467921081181402357467303721471806610111179101805869578687';
const openOrder = '0x06422164b1cbee9dc2b7a7ab386ffbb3f31a5975d72294bef80d6e4788959dd6';
const limitBuy = { marketId: '559652', outcomeId: yes, side: 'buy', type: 'limit', amount: 10, price: 0.228 };

const atMost = (limit: number) => (result: unknown) =>
  (result as unknown[]).length <= limit ? [] : [`data: asked for at most ${limit}, got ${(result as unknown[]).length}`];
const nonEmpty = (result: unknown) => ((result as unknown[]).length > 0 ? [] : ['data: expected items from the recorded answer']);
const field = (name: string, expected: unknown) => (result: unknown) => {
  const actual = (result as Record<string, unknown>)[name];
  return actual === expected ? [] : [`data.${name}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
};

const cases: Record<string, ConformanceCase[]> = {
  fetchEvents: [
    { title: 'listing', args: [{ status: 'all', limit: 4 }], check: (result) => [...atMost(4)(result), ...nonEmpty(result)] },
    { title: 'default status', args: [{ limit: 3 }], check: atMost(3) },
    { title: 'search', args: [{ query: 'bitcoin', limit: 1 }], check: (result) => [...atMost(1)(result), ...nonEmpty(result)] },
  ],
  fetchEventsPaginated: [
    {
      args: [{ status: 'all', limit: 2 }],
      check: (result) => ((result as { nextCursor?: string }).nextCursor ? [] : ['data.nextCursor: expected the venue cursor']),
    },
  ],
  fetchEvent: [{ args: [{ slug: 'democratic-presidential-nominee-2028' }], check: field('id', '30829') }],
  fetchMarkets: [
    { title: 'listing', args: [{ limit: 2 }], check: atMost(2) },
    { title: 'by id', args: [{ marketId: '559652' }], check: nonEmpty },
  ],
  fetchMarket: [{ args: [{ marketId: '559652' }], check: field('marketId', '559652') }],
  fetchSeries: [
    { title: 'listing', args: [{ limit: 2 }], check: atMost(2) },
    { title: 'by id', args: [{ id: '10192' }], check: nonEmpty },
  ],
  fetchOrderBook: [
    { title: 'by token', args: [yes] },
    { title: 'by market and outcome', args: ['559652', null, { outcome: 'yes' }], check: field('isNegRisk', true) },
  ],
  fetchOrderBooks: [{ args: [[yes, no]], check: (result) => (Object.keys(result as object).length === 2 ? [] : ['data: expected two books']) }],
  fetchTrades: [{ args: [yes, { limit: 2 }], check: atMost(2) }],
  fetchOHLCV: [{ args: [yes, { resolution: '1h', start: '2026-06-13T23:00:00Z', end: '2026-06-14T10:00:00Z' }], check: nonEmpty }],
  createOrder: [{ args: [limitBuy], check: field('status', 'open') }],
  buildOrder: [{ args: [limitBuy] }],
  submitOrder: [{ args: async (discovery) => [await discovery.adapter.buildOrder!(limitBuy as never)], check: field('status', 'open') }],
  cancelOrder: [{ args: [openOrder], check: field('status', 'cancelled') }],
  fetchOrder: [{ args: [openOrder], check: field('id', openOrder) }],
  fetchOpenOrders: [{ args: [], check: nonEmpty }],
  fetchMyTrades: [{ args: [], check: nonEmpty }],
  fetchPositions: [
    { title: 'own account', args: [], check: nonEmpty },
    { title: 'public address', args: ['0x3e5b0d4f7c1a9e2d8b6f4a0c2e7d9b1f5a3c8e60'], check: nonEmpty },
  ],
  fetchBalance: [{ args: [], check: nonEmpty }],
  watchOrderBook: [{ args: [yes], check: nonEmpty }].map((entry) => ({ ...entry, check: (result: unknown) => nonEmpty((result as { bids: unknown[] }).bids) })),
  watchTrades: [{ args: [yes], check: nonEmpty }],
};

runConformanceSuite(test, { name: 'polymarket', create: () => createReplayingAdapter(undefined, streamConfig), cases });

/**
 * Every id handed out is accepted back, on the recorded chain of one event:
 * the 2028 Democratic nominee event by slug and by id, its first market by id
 * and by slug, and both outcome tokens' books, tapes and candles.
 */
runRoundTripLaw(test, {
  name: 'polymarket',
  create: () => createReplayingAdapter(undefined),
  events: { slug: 'democratic-presidential-nominee-2028' },
  sample: { events: 1, markets: 1 },
});
