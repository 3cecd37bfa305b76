import { runAdapterSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import plugin from '../src/index.js';

runAdapterSuites(test, {
  plugin,
  fixtures: new URL('./fixtures', import.meta.url).pathname,
  // The recordings' clock: the newest subgraph row is minutes before it.
  now: 1_795_316_400_000,
  // The caller's The Graph key (a test value: trades, candles and wallet reads need one) and the recorded wallet.
  credentials: { apiKey: 'test-subgraph-key', walletAddress: '0x9920F6A0BE82b44bD4F67a736e2E88B5d8b136d4' },
  cases: { fetchPositions: [{ args: ['0x9920F6A0BE82b44bD4F67a736e2E88B5d8b136d4'] }], fetchMyTrades: [{ args: [{}] }] },
  // The recorded chain follows the BTC pool: its lookups by id and slug, and both options' trades and candles.
  roundTrip: { events: { limit: 3 }, sample: { events: 1, markets: 1 } },
});
