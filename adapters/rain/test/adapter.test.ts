import { runAdapterSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import plugin from '../src/index.js';

runAdapterSuites(test, {
  plugin,
  fixtures: new URL('./fixtures', import.meta.url).pathname,
  // The recordings' clock: the newest subgraph row is minutes before it.
  now: 1_795_316_400_000,
  // The caller's The Graph key (a test value): trades and candles need one.
  credentials: { apiKey: 'test-subgraph-key' },
  // The recorded chain follows the BTC pool: its lookups by id and slug, and both options' trades and candles.
  roundTrip: { events: { limit: 3 }, sample: { events: 1, markets: 1 } },
});
