import { runAdapterSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import plugin from '../src/index.js';

runAdapterSuites(test, {
  plugin,
  fixtures: new URL('./fixtures', import.meta.url).pathname,
  // The recordings' clock: the price charts end here.
  now: 1_795_316_400_000,
  // The recorded wallet: user reads name it by address.
  credentials: { funderAddress: '0x7a16fF8270133F063aAb6C9977183D9e72835428' },
  cases: { fetchPositions: [{ args: [] }], fetchMyTrades: [{ args: [], check: (trades) => ((trades as unknown[]).length > 0 ? [] : ['data: no trades']) }] },
  // The recorded chain follows the order-book market 56:2207: its lookups by id and slug, both outcome books, trades and charts.
  roundTrip: { events: { eventId: '56:2207' }, sample: { events: 1, markets: 1 } },
});
