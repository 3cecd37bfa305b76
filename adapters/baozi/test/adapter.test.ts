import { runAdapterSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import plugin from '../src/index.js';

const wallet = 'Fdv3pEdQgiM9giBFe8CFWdvvMr1EmoeP8z8rHkEezUsW';
/** A test key (seed sha256("predgate baozi test key (never funded)")), never a real one: it signs the recorded bets. */
const testKey = '3ucSbADLwJkAGyAguLw4uhRrMsBmmKTj4bduP7DLePtGjfFriQTzVkxCSi49QzzaSZjU3HBamwX8fg8soJwrhKVn';
const vitality = '8L6EjHgTjrqQWJGSo5p3QKHD4zf7SWusqSBr7kcfMKnK';

runAdapterSuites(test, {
  plugin,
  fixtures: new URL('./fixtures', import.meta.url).pathname,
  // The recordings' clock (2026-11-23T10:20:00Z): the last bet on market 412 is a few minutes before.
  now: 1_795_316_400_000,
  // Positions, balance and orders are read for the public wallet; bets are signed with the test key.
  credentials: { walletAddress: wallet, privateKey: testKey },
  cases: {
    fetchPositions: [{ args: [wallet] }],
    createOrder: [{ args: [{ marketId: vitality, outcomeId: `${vitality}-YES`, side: 'buy', type: 'market', amount: 0.5 }] }],
    fetchOrder: [{ args: ['5fHa461qrNToA3fcMKqm15TPFXsfEvXVEtqD17CtUhqqMFAsfXg4rGjXECbXsLhCQMbXvxHLncCKuDj6o4WDKW4g'] }],
  },
  // The two largest open markets, a boolean and a race, are looked up by address.
  roundTrip: { events: { limit: 3 }, sample: { events: 2, markets: 1 } },
});
