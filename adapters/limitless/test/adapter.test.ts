import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { runAdapterSuites } from '@predgate/core/testkit';
import { afterAll, test } from 'vitest';
import { WebSocketServer } from 'ws';
import plugin from '../src/index.js';

const slug = 'eth-up-or-down-daily-1788105600';
const yesToken = '25018063611559838047404811982184442876005199660833597814711111046007291893507';
/** A limit buy of the recorded market, as the recorded placement answers it. */
const order = { marketId: slug, outcomeId: yesToken, side: 'buy', type: 'limit', amount: 10, price: 0.115 } as const;
const noToken = '17290088314417092761188354609011753312046778951320955823447861140399281172035';

/**
 * The venue's Socket.IO endpoint replayed on 127.0.0.1 for watchOrderBook:
 * the `/markets` namespace is joined, and each subscribed slug gets the
 * recorded REST book pushed as an `orderbookUpdate`.
 */
const recordedBook = JSON.parse(readFileSync(new URL('./fixtures/payloads/orderbook.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const socketIo = new WebSocketServer({ host: '127.0.0.1', port: 0 });
await once(socketIo, 'listening');
socketIo.on('connection', (socket) => {
  socket.send('0{"sid":"replay","upgrades":[],"pingInterval":25000,"pingTimeout":20000}');
  socket.on('message', (data) => {
    const text = data.toString();
    if (text === '40/markets,') socket.send('40/markets,{"sid":"replay-markets"}');
    if (!text.startsWith('42/markets,')) return;
    const [name, payload] = JSON.parse(text.slice('42/markets,'.length)) as [string, { marketSlugs: string[] }];
    if (name !== 'subscribe_market_prices') return;
    for (const marketSlug of payload.marketSlugs) {
      socket.send(`42/markets,${JSON.stringify(['orderbookUpdate', { marketSlug, orderbook: recordedBook, timestamp: '2026-08-31T07:30:00.000Z' }])}`);
    }
  });
});
afterAll(() => new Promise((resolve) => socketIo.close(resolve)));

runAdapterSuites(test, {
  plugin,
  config: { ws: `ws://127.0.0.1:${(socketIo.address() as { port: number }).port}` },
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
    createOrder: [{ args: [order] }],
    buildOrder: [{ args: [order] }],
    submitOrder: [{ args: async ({ adapter }) => [await adapter.buildOrder!(order)] }],
    fetchOHLCV: [{ args: ['25018063611559838047404811982184442876005199660833597814711111046007291893507', { resolution: '1h' }] }],
    // Orders are found per market: they are named `<market slug>:<order id>` here (the recorded instance has listed none yet).
    cancelOrder: [{ args: [`${slug}:611badac-8dfc-48a0-b09e-59654adea1c5`] }],
    fetchOrder: [{ args: [`${slug}:9c1e5f2a-3b4d-4e6f-8a7b-0c1d2e3f4a5b`] }],
    fetchClosedOrders: [{ args: [{ marketId: slug, limit: 5 }] }],
    fetchAllOrders: [{ args: [{ marketId: slug }] }],
    fetchMyTrades: [{ args: [{ limit: 2 }] }],
    fetchPositions: [{ args: [] }],
    // A slug is its YES book; a token id its own side (the NO token's book is the inversion).
    watchOrderBook: [
      { args: [slug], check: (book) => sideOf(book, 'yes') },
      { args: [yesToken], check: (book) => sideOf(book, 'yes') },
      { args: [noToken], check: (book) => sideOf(book, 'no') },
    ],
  },
  // The recorded chain: the ETH daily market as an event and a market by its slug, its YES and NO books and price history.
  roundTrip: { events: { eventId: slug }, sample: { events: 1, markets: 1 } },
});

/** The recorded YES book's best bid is 0.012: the NO book's best ask is 0.988. */
function sideOf(result: unknown, side: 'yes' | 'no'): string[] {
  const book = result as { bids: Array<{ price: number }>; asks: Array<{ price: number }> };
  const ok = side === 'yes' ? book.bids[0]?.price === 0.012 : book.asks[0]?.price === 0.988;
  return ok ? [] : [`data: expected the ${side.toUpperCase()} view of the recorded book, got best bid ${book.bids[0]?.price} and ask ${book.asks[0]?.price}`];
}
