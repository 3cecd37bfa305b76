import { once } from 'node:events';
import { runAdapterSuites } from '@predgate/core/testkit';
import { afterAll, test } from 'vitest';
import { WebSocketServer } from 'ws';
import plugin from '../src/index.js';

/** Gemini's market-data websocket replayed on 127.0.0.1: each subscribed stream gets a partial-depth book or a print of its symbol. */
const socketVenue = new WebSocketServer({ host: '127.0.0.1', port: 0 });
await once(socketVenue, 'listening');
socketVenue.on('connection', (socket) =>
  socket.on('message', (data) => {
    const { id, method, params } = JSON.parse(data.toString()) as { id: string; method: string; params: string[] };
    if (method !== 'subscribe') return;
    socket.send(JSON.stringify({ id, status: 200 }));
    for (const name of params) {
      const [symbol, kind] = name.split('@') as [string, string];
      socket.send(
        JSON.stringify(
          kind === 'trade'
            ? { E: 1_787_199_000_000_000_000, s: symbol.toLowerCase(), t: 2840140800000001, p: '0.27', q: '150', m: false }
            : { lastUpdateId: 1, symbol: symbol.toLowerCase(), bids: [['0.27', '1200']], asks: [['0.29', '500']] },
        ),
      );
    }
  }),
);
afterAll(() => new Promise((resolve) => socketVenue.close(resolve)));

const order = { marketId: 'GEMI-FEDJAN26-DN25', outcomeId: 'GEMI-FEDJAN26-DN25:yes', side: 'buy', type: 'limit', amount: 100, price: 0.65 };

runAdapterSuites(test, {
  plugin,
  fixtures: new URL('./fixtures', import.meta.url).pathname,
  // 2026-08-20T04:26:40Z, after the recorded trades; private calls sign with this nonce.
  now: 1_787_200_000_000,
  credentials: { apiKey: 'account-key-fixture', apiSecret: 'fixture-secret' },
  config: { wsUrl: `ws://127.0.0.1:${(socketVenue.address() as { port: number }).port}` },
  cases: {
    fetchOrderBook: [{ args: ['GEMI-DEMNOM2028-DEMNOM28AOC:yes'] }],
    fetchTrades: [{ args: ['GEMI-DEMNOM2028-DEMNOM28AOC:yes', { limit: 2 }] }],
    fetchOHLCV: [{ args: ['GEMI-DEMNOM2028-DEMNOM28AOC:yes', { resolution: '1d' }] }],
    createOrder: [{ args: [order] }],
    buildOrder: [{ args: [order] }],
    submitOrder: [{ args: async (d) => [await (d.adapter.buildOrder as (params: object) => Promise<unknown>)(order)] }],
    fetchSeries: [{ args: [] }],
    cancelOrder: [{ args: ['73400912771'] }],
    fetchOpenOrders: [{ args: [] }],
    fetchPositions: [{ args: [] }],
    fetchOrder: [{ args: ['73400899001'] }],
    fetchClosedOrders: [{ args: [{}] }],
    fetchAllOrders: [{ args: [{}] }],
    fetchEvents: [{ args: [{}] }],
    fetchMarkets: [{ args: [{ marketId: 'GEMI-DEMNOM2028-DEMNOM28AOC' }] }],
    watchOrderBook: [{ args: ['GEMI-DEMNOM2028-DEMNOM28AOC:yes'] }, { args: ['GEMI-DEMNOM2028-DEMNOM28AOC:no'] }],
    watchTrades: [{ args: ['GEMI-DEMNOM2028-DEMNOM28AOC:no'] }],
  },
  // The recorded chain: DEMNOM2028 by ticker (slugs are refused as NOT_SUPPORTED), its first leg by symbol and slug, both sides' books, tapes and candles.
  roundTrip: { events: { eventId: 'DEMNOM2028' }, sample: { events: 1, markets: 1 } },
});
