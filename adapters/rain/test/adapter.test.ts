import { once } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
import { runAdapterSuites } from '@predgate/core/testkit';
import { afterAll, test } from 'vitest';
import { WebSocketServer } from 'ws';
import plugin from '../src/index.js';

/**
 * The venue's Socket.IO endpoint replayed on 127.0.0.1 for watchTrades: once
 * the default namespace is joined, every recorded pool gets an AMM entry
 * (`enter-option/{poolId}`) for each of its first options — Rain has no
 * subscribe message, every client hears every pool.
 */
const payloads = new URL('./fixtures/payloads/', import.meta.url);
const poolIds = new Set(
  readdirSync(payloads)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => [...readFileSync(new URL(name, payloads), 'utf8').matchAll(/"_id":\s*"([0-9a-f]{24})"/g)].map((match) => match[1]!)),
);
const socketIo = new WebSocketServer({ host: '127.0.0.1', port: 0 });
await once(socketIo, 'listening');
socketIo.on('connection', (socket) => {
  socket.send('0{"sid":"replay","upgrades":[],"pingInterval":25000,"pingTimeout":20000}');
  socket.on('message', (data) => {
    if (data.toString() !== '40') return;
    socket.send('40{"sid":"replay-default"}');
    for (const poolId of poolIds) {
      const investment = Array.from({ length: 10 }, (_, choiceIndex) => ({ choiceIndex, amount: '12500000', optionAmount: '25000000' }));
      const enterOption = { _id: `replay-${poolId}`, createdAt: '2026-11-22T08:00:00.000Z', investment, totalInvestment: '125000000' };
      socket.send(`42${JSON.stringify([`enter-option/${poolId}`, { pool: { _id: poolId, token: { tokenDecimals: 6 } }, enterOption }])}`);
    }
  });
});
afterAll(() => new Promise((resolve) => socketIo.close(resolve)));

runAdapterSuites(test, {
  plugin,
  config: { ws: `ws://127.0.0.1:${(socketIo.address() as { port: number }).port}` },
  fixtures: new URL('./fixtures', import.meta.url).pathname,
  // The recordings' clock: the newest subgraph row is minutes before it.
  now: 1_795_316_400_000,
  // The caller's The Graph key (a test value: trades, candles and wallet reads need one) and the recorded wallet.
  credentials: { apiKey: 'test-subgraph-key', walletAddress: '0x9920F6A0BE82b44bD4F67a736e2E88B5d8b136d4' },
  cases: { fetchPositions: [{ args: ['0x9920F6A0BE82b44bD4F67a736e2E88B5d8b136d4'] }], fetchMyTrades: [{ args: [{}] }] },
  // The recorded chain follows the BTC pool: its lookups by id and slug, and both options' trades and candles.
  roundTrip: { events: { limit: 3 }, sample: { events: 1, markets: 1 } },
});
