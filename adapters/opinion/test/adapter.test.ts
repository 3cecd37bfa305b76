import { once } from 'node:events';
import { runAdapterSuites } from '@predgate/core/testkit';
import { afterAll, test } from 'vitest';
import { WebSocketServer } from 'ws';
import plugin from '../src/index.js';

/** The recorded binary market and its YES token (its detail and book are in the fixtures). */
const streamMarket = '2764';
const streamToken = '72456972731943235003915404123398016087970045278788792487331472933921362295292';

/** Opinion's websocket on 127.0.0.1: a trade subscription gets one print of the market's YES token. */
const socketVenue = new WebSocketServer({ host: '127.0.0.1', port: 0 });
await once(socketVenue, 'listening');
socketVenue.on('connection', (socket) =>
  socket.on('message', (data) => {
    const { action, channel, marketId } = JSON.parse(data.toString()) as { action: string; channel: string; marketId: number };
    if (action !== 'SUBSCRIBE' || channel !== 'market.last.trade' || String(marketId) !== streamMarket) return;
    socket.send(
      JSON.stringify({ marketId, tokenId: streamToken, side: 'Buy', outcomeSide: 1, price: '0.36', shares: '5', amount: '1.8', msgType: 'market.last.trade' }),
    );
  }),
);
afterAll(() => new Promise((resolve) => socketVenue.close(resolve)));

runAdapterSuites(test, {
  plugin,
  fixtures: new URL('./fixtures', import.meta.url).pathname,
  // The recordings' clock: the price history ends here.
  now: 1_795_316_400_000,
  // The operator's read key of the shared instance; cases with their own `credentials` send the caller's.
  config: { apiKey: 'test-read-key', wsUrl: `ws://127.0.0.1:${(socketVenue.address() as { port: number }).port}` },
  // Streams by the recorded market's id (its YES token): the book is seeded from its recorded REST book.
  cases: { watchOrderBook: [{ args: [streamMarket] }], watchTrades: [{ args: [streamMarket] }] },
  // Test credentials only: a development key (the first Hardhat account) and the recorded Safe address.
  credentials: {
    apiKey: 'account-key',
    privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    funderAddress: '0x3bE5a1d0C8e4F8A9b2D7c6E5f4A3B2C1d0E9f8A7',
  },
  // The recorded chain follows the first event of the listing (the Fed market): its lookups, both books and both candle series.
  roundTrip: { events: { limit: 1 }, sample: { events: 1, markets: 1 } },
});
