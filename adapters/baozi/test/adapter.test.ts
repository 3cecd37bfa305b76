import { runAdapterSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import plugin from '../src/index.js';

const wallet = 'Fdv3pEdQgiM9giBFe8CFWdvvMr1EmoeP8z8rHkEezUsW';

runAdapterSuites(test, {
  plugin,
  fixtures: new URL('./fixtures', import.meta.url).pathname,
  // The recordings' clock (2026-11-23T10:20:00Z): the last bet on market 412 is a few minutes before.
  now: 1_795_316_400_000,
  // A public wallet, never a key: positions and balance are read by address.
  credentials: { walletAddress: wallet },
  cases: {
    fetchPositions: [{ args: [wallet] }],
    fetchOrder: [{ args: ['5fHa461qrNToA3fcMKqm15TPFXsfEvXVEtqD17CtUhqqMFAsfXg4rGjXECbXsLhCQMbXvxHLncCKuDj6o4WDKW4g'] }],
  },
  // The two largest open markets, a boolean and a race, are looked up by address.
  roundTrip: { events: { limit: 3 }, sample: { events: 2, markets: 1 } },
});
