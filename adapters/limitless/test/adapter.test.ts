import { runAdapterSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import plugin from '../src/index.js';

const slug = 'eth-up-or-down-daily-1788105600';

runAdapterSuites(test, {
  plugin,
  fixtures: new URL('./fixtures', import.meta.url).pathname,
  // 2026-08-31T07:30:00Z, during the recorded day.
  now: Date.UTC(2026, 7, 31, 7, 30),
  // A scoped test token: the secret is base64 of a made-up key.
  credentials: {
    apiKey: 'tok_test',
    apiSecret: Buffer.from('limitless-test-secret').toString('base64'),
    privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  },
  cases: {
    fetchEvents: [{ args: [{}] }],
    fetchMarkets: [{ args: [{ marketId: slug }] }],
    fetchOrderBook: [{ args: [slug, null, { side: 'yes' }] }],
    fetchOpenOrders: [{ args: [slug] }],
    createOrder: [
      {
        args: [
          {
            marketId: slug,
            outcomeId: '25018063611559838047404811982184442876005199660833597814711111046007291893507',
            side: 'buy',
            type: 'limit',
            amount: 10,
            price: 0.115,
          },
        ],
      },
    ],
    fetchOHLCV: [{ args: ['25018063611559838047404811982184442876005199660833597814711111046007291893507', { resolution: '1h' }] }],
    // Orders are found per market: they are named `<market slug>:<order id>` here (the recorded instance has listed none yet).
    cancelOrder: [{ args: [`${slug}:611badac-8dfc-48a0-b09e-59654adea1c5`] }],
    fetchOrder: [{ args: [`${slug}:9c1e5f2a-3b4d-4e6f-8a7b-0c1d2e3f4a5b`] }],
    fetchClosedOrders: [{ args: [{ marketId: slug, limit: 5 }] }],
    fetchAllOrders: [{ args: [{ marketId: slug }] }],
    fetchMyTrades: [{ args: [{ limit: 2 }] }],
    fetchPositions: [{ args: [] }],
  },
  // The recorded chain: the ETH daily market as an event and a market by its slug, its YES and NO books and price history.
  roundTrip: { events: { eventId: slug }, sample: { events: 1, markets: 1 } },
});
