import { once } from 'node:events';
import { runAdapterSuites } from '@predgate/core/testkit';
import { afterAll, test } from 'vitest';
import { WebSocketServer } from 'ws';
import plugin from '../src/index.js';

const yes = '42922145754268586232753586497078434283008194607014016171721522108902381902084';
const no = '5722005404824512810116175401897660245563008472737131911791837693804332853698';
/** Probable's websocket on 127.0.0.1: each subscribed book stream gets a whole book at once. */
const socketVenue = new WebSocketServer({ host: '127.0.0.1', port: 0 });
await once(socketVenue, 'listening');
socketVenue.on('connection', (socket) =>
  socket.on('message', (data) => {
    const { id, method, params } = JSON.parse(data.toString()) as { id: number; method: string; params: string[] };
    socket.send(JSON.stringify({ id, status: 200, result: null }));
    if (method !== 'SUBSCRIBE') return;
    for (const stream of params) {
      const data = { bids: [{ price: '0.6', size: '2500' }], asks: [{ price: '0.62', size: '900' }], timestamp: '1778767354' };
      socket.send(JSON.stringify({ stream, data }));
    }
  }),
);
afterAll(() => new Promise((resolve) => socketVenue.close(resolve)));

const limitBuy = { marketId: '4512', outcomeId: yes, side: 'buy', type: 'limit', amount: 10, price: 0.6 } as const;

runAdapterSuites(test, {
  plugin,
  fixtures: new URL('./fixtures', import.meta.url).pathname,
  // 2026-05-14T14:05:00Z, after the recorded book.
  now: Date.UTC(2026, 4, 14, 14, 5),
  // Test credentials only: the first Hardhat development key and made-up API keys (see fixtures/scripts).
  credentials: {
    privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    apiKey: 'test-api-key',
    apiSecret: 'cHJlZGdhdGUtcHJvYmFibGUtdGVzdC1zZWNyZXQtMDE=',
    passphrase: 'test-passphrase',
  },
  config: { wsUrl: `ws://127.0.0.1:${(socketVenue.address() as { port: number }).port}/public/api/v1` },
  cases: {
    watchOrderBook: [{ args: [yes] }],
    fetchEvents: [{ args: [{}] }],
    fetchMarkets: [{ args: [{ marketId: '4512' }] }],
    fetchOrderBook: [{ args: [yes] }],
    fetchOHLCV: [{ args: [yes, { resolution: '1h', start: '2026-05-14T00:00:00.000Z', end: '2026-05-14T12:00:00.000Z' }] }],
    fetchPositions: [{ args: ['0x8a3D1d4c5E6f708192a3B4c5D6e7F8091a2B3c4D'] }],
    createOrder: [{ args: [limitBuy] }],
    buildOrder: [{ args: [limitBuy] }],
    submitOrder: [{ args: async (d) => [await d.adapter.buildOrder!(limitBuy)] }],
    cancelOrder: [{ args: [`9001:${yes}`] }],
    fetchOrder: [{ args: [`9002:${no}`] }],
    fetchOpenOrders: [{ args: ['4512'] }],
    fetchMyTrades: [{ args: [{ outcomeId: yes }] }],
  },
  roundTrip: { events: { eventId: '1977' }, sample: { events: 1, markets: 1 } },
});
