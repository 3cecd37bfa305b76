import { runAdapterSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import plugin from '../src/index.js';

runAdapterSuites(test, {
  plugin,
  fixtures: new URL('./fixtures', import.meta.url).pathname,
  // 2024-06-12T13:15:00Z: the recorded session is valid until 13:40.
  now: 1_718_198_100_000,
  credentials: { apiKey: 'trader@example.com', privateKey: 'correct horse battery staple' },
  cases: {
    fetchEvents: [{ args: [{}] }],
    fetchMarkets: [{ args: [{ marketId: '71642452' }] }],
    fetchOrderBook: [{ args: ['71642452:205431901'] }],
    fetchOrder: [{ args: ['1732145609914801'] }],
    cancelOrder: [{ args: ['1732145609914801'] }],
    createOrder: [{ args: [{ marketId: '71642452', outcomeId: '71642452:205431901', side: 'buy', type: 'limit', amount: 100, price: 0.641 }] }],
    fetchOpenOrders: [{ args: [] }],
    fetchAllOrders: [{ args: [{}] }],
    fetchClosedOrders: [{ args: [] }],
    fetchMyTrades: [{ args: [] }],
    fetchEventsPaginated: [{ args: [{ status: 'all', limit: 5 }] }],
  },
  roundTrip: { events: {}, sample: { events: 1, markets: 1 } },
});
