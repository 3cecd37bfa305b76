import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { runAdapterSuites } from '@predgate/core/testkit';
import { afterAll, test } from 'vitest';
import { WebSocketServer } from 'ws';
import plugin from '../src/index.js';

const slug = 'tec-mlb-nlchamp-2026-09-27-mil';
const order = { marketId: slug, outcomeId: `${slug}:short`, side: 'buy', type: 'limit', amount: 10, price: 0.3 };

/**
 * The markets websocket replayed on 127.0.0.1 for the streaming methods: each
 * book subscription gets the recorded REST book as its `marketData` frame, each
 * trade subscription one print.
 */
const recorded = JSON.parse(readFileSync(new URL('./fixtures/payloads/orderbook.json', import.meta.url), 'utf8')) as { marketData: Record<string, unknown> };
const markets = new WebSocketServer({ host: '127.0.0.1', port: 0 });
await once(markets, 'listening');
markets.on('connection', (socket) =>
  socket.on('message', (data) => {
    const { subscribe } = JSON.parse(data.toString()) as { subscribe?: { requestId: string; subscriptionType: string; marketSlugs: string[] } };
    for (const marketSlug of subscribe?.marketSlugs ?? []) {
      const { requestId, subscriptionType } = subscribe!;
      if (subscriptionType === 'SUBSCRIPTION_TYPE_MARKET_DATA')
        socket.send(JSON.stringify({ requestId, subscriptionType, marketData: { ...recorded.marketData, marketSlug } }));
      if (subscriptionType === 'SUBSCRIPTION_TYPE_TRADE') {
        const price = { value: '0.2650', currency: 'USD' };
        const trade = {
          marketSlug,
          price,
          quantity: { value: '10', currency: 'USD' },
          tradeTime: '2026-09-06T00:58:00Z',
          taker: { intent: 'ORDER_INTENT_BUY_LONG' },
        };
        socket.send(JSON.stringify({ requestId, subscriptionType, trade }));
      }
    }
  }),
);
afterAll(() => new Promise((resolve) => markets.close(resolve)));

runAdapterSuites(test, {
  plugin,
  config: { wsUrl: `ws://127.0.0.1:${(markets.address() as { port: number }).port}/v1/ws/markets` },
  fixtures: new URL('./fixtures', import.meta.url).pathname,
  // 2026-09-29T10:40:00Z; signed calls stamp this time.
  now: 1_788_000_000_000,
  // A test key: the seed is 32 bytes of 7s, never a real account's.
  credentials: { apiKey: '9f2c1b7e-4a63-4d21-8e5f-0b7a3c9d1e42', privateKey: Buffer.alloc(32, 7).toString('base64') },
  cases: {
    fetchEvents: [{ args: [{}] }],
    fetchMarkets: [{ args: [{ marketId: slug }] }],
    fetchOrderBook: [{ args: [`${slug}:long`] }],
    fetchOrder: [{ args: ['ord_01J9Z4T7K3QW8M2V5X6Y7Z8A9B'] }],
    cancelOrder: [{ args: ['ord_01J9Z4T7K3QW8M2V5X6Y7Z8A9B'] }],
    fetchOpenOrders: [{ args: [] }],
    fetchPositions: [{ args: [] }],
    // The recorded book's best long bid is 0.265: the short book's best ask is 0.735.
    watchOrderBook: [
      { args: [`${slug}:long`], check: (book) => best(book, 'bids', 0.265) },
      { args: [`${slug}:short`], check: (book) => best(book, 'asks', 0.735) },
    ],
    watchTrades: [
      {
        args: [`${slug}:short`],
        check: (trades) => ((trades as Array<{ price: number }>)[0]?.price === 0.735 ? [] : ['data: the print priced on the short side']),
      },
    ],
    createOrder: [{ args: [order] }],
    buildOrder: [{ args: [order] }],
    submitOrder: [{ args: async (d) => [await (d.adapter.buildOrder as (params: object) => Promise<unknown>)(order)] }],
    fetchMyTrades: [{ args: [] }],
    fetchSeries: [{ args: [] }],
  },
  // The recorded chain: the futures event by slug, its first market by slug, both sides' books.
  roundTrip: { events: { eventId: 'mlb-nlchamp-2026' }, sample: { events: 1, markets: 1 } },
});

function best(result: unknown, side: 'bids' | 'asks', price: number): string[] {
  const top = (result as Record<'bids' | 'asks', Array<{ price: number }>>)[side][0]?.price;
  return top === price ? [] : [`data.${side}[0].price: expected ${price}, got ${top}`];
}
