import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { runAdapterSuites } from '@predgate/core/testkit';
import { afterAll, test } from 'vitest';
import { WebSocketServer } from 'ws';
import plugin from '../src/index.js';

const payload = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/payloads/${name}`, import.meta.url), 'utf8')) as unknown;

/** Hyperliquid's websocket replayed on 127.0.0.1: each subscribed coin gets the recorded book or tape, as `l2Book` / `trades` messages. */
const socketVenue = new WebSocketServer({ host: '127.0.0.1', port: 0 });
await once(socketVenue, 'listening');
socketVenue.on('connection', (socket) =>
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { method: string; subscription?: { type: string; coin: string } };
    if (message.method !== 'subscribe' || !message.subscription) return;
    const { type, coin } = message.subscription;
    socket.send(JSON.stringify({ channel: 'subscriptionResponse', data: message }));
    const book = payload('l2book-2020.json') as Record<string, unknown>;
    const trades = (payload('recent-trades.json') as Array<Record<string, unknown>>).map((row) => ({ ...row, coin }));
    socket.send(JSON.stringify(type === 'l2Book' ? { channel: 'l2Book', data: { ...book, coin } } : { channel: 'trades', data: trades }));
  }),
);
afterAll(() => new Promise((resolve) => socketVenue.close(resolve)));

/** Hardhat's first development key (public, never to hold funds) as an API wallet of the fixtures' account. */
export const credentials = {
  privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  walletAddress: '0x3b1e5a77c0d2f4a9e8b6c1d0f2a3b4c5d6e7f809',
};

/** The recorded order: 100 Argentina YES at 0.19, resting. */
const order = { marketId: '173', outcomeId: '100001730', side: 'buy', type: 'limit', amount: 100, price: 0.19 } as const;

runAdapterSuites(test, {
  plugin,
  fixtures: new URL('./fixtures', import.meta.url).pathname,
  // 2026-07-09T18:15:00Z, minutes after the captured book.
  now: 1_783_620_900_000,
  credentials,
  config: { wsUrl: `ws://127.0.0.1:${(socketVenue.address() as { port: number }).port}/ws` },
  cases: {
    fetchOrderBook: [{ args: ['100002020'] }],
    fetchTrades: [{ args: ['100002020', { limit: 10 }] }],
    fetchOHLCV: [{ args: ['100002020', { resolution: '1h', start: '2026-07-09T13:00:00.000Z', end: '2026-07-09T17:00:00.000Z' }] }],
    createOrder: [{ args: [order] }],
    buildOrder: [{ args: [order] }],
    submitOrder: [{ args: async ({ adapter }) => [await adapter.buildOrder!(order)] }],
    cancelOrder: [{ args: ['118223344551'] }],
    fetchOrderBooks: [{ args: [['100002020', '100002021']] }],
    fetchOrder: [{ args: ['118223344420'] }],
    fetchClosedOrders: [{ args: [] }],
    fetchAllOrders: [{ args: [] }],
    fetchOpenOrders: [{ args: [] }],
    fetchMyTrades: [{ args: [] }],
    fetchPositions: [{ args: [] }],
    watchOrderBook: [{ args: ['100002020'] }],
    watchTrades: [{ args: ['100002020'] }],
  },
  // The recorded chain: the World Cup champion question by id (and slug, the same), its first market (Argentina) and both sides.
  roundTrip: { events: { eventId: '32' }, sample: { events: 1, markets: 1 } },
});
