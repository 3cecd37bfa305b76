import { runAdapterSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import plugin from '../src/index.js';

const wallet = '0x8ba1f109551bd432803012645ac136ddd64dba72';

runAdapterSuites(test, {
  plugin,
  fixtures: new URL('./fixtures', import.meta.url).pathname,
  // The recordings' clock: the research answers were generated then.
  now: 1_787_227_500_000,
  // A throwaway key (web3.js documentation's example); reads go to the fixtures' wallet.
  credentials: { privateKey: '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318', walletAddress: wallet },
  cases: {
    fetchPositions: [{ args: [wallet] }],
    createOrder: [{ args: [{ marketId: 'hunch-10m', outcomeId: 'hunch-10m:yes', side: 'buy', type: 'market', amount: 5 }] }],
  },
  roundTrip: { events: { eventId: 'hunch-10m' }, sample: { events: 1, markets: 1 } },
});
