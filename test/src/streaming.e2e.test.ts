import { createRequire } from 'node:module';
import pmxt from 'pmxtjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, mockStreamingGateway } from './support.js';
import type { Gateway } from './support.js';

/**
 * pmxtjs 2.41 finds a WebSocket as `globalThis.WebSocket` or with `require("ws")`.
 * On Node 20 its ESM build has neither (no global WebSocket, no `require`) and
 * always takes the HTTP fallback; its CommonJS build uses the socket.
 */
const commonJs = createRequire(import.meta.url)('pmxtjs') as typeof pmxt;

/** pmxtjs has no class for the mock venue: its base class names any exchange. */
const mockVenue = (build: typeof pmxt = commonJs) =>
  new (class extends build.Exchange {
    constructor() {
      super('mock', { baseUrl: app.server.info.uri, pmxtApiKey: apiKey, autoStartServer: false });
    }
  })();

let app: Gateway;
let outcomeId: string;
beforeAll(async () => {
  ({ app, outcomeId } = await mockStreamingGateway());
});
afterAll(() => app.stop());

describe('pmxtjs 2.41 streams books from the gateway', () => {
  test('watchOrderBook over /ws receives full books from the mock venue, one upstream for the symbol', async () => {
    const venue = mockVenue();
    const first = await venue.watchOrderBook(outcomeId);
    const second = await venue.watchOrderBook(outcomeId);
    for (const book of [first, second]) {
      expect(book.bids.length).toBeGreaterThan(0);
      expect(book.asks.length).toBeGreaterThan(0);
      expect(book.bids[0]!.price).toBeLessThan(book.asks[0]!.price);
      expect(typeof book.timestamp).toBe('number');
    }
    // The socket was used, not the HTTP fallback.
    expect(app.streams.clients).toBe(1);
    expect(app.streams.http.size).toBe(0);
    expect(app.streams.hub.keys).toEqual([`mock watchOrderBook ${JSON.stringify([outcomeId])}`]);
  });

  test('watchOrderBooks over /ws answers books keyed by outcome', async () => {
    const venue = mockVenue();
    const books = await venue.watchOrderBooks([outcomeId]);
    expect(Object.keys(books)).toEqual([outcomeId]);
    expect(books[outcomeId]!.bids.length).toBeGreaterThan(0);
  });

  test('without a socket (the ESM build on Node 20), watchOrderBook takes the HTTP fallback on the same shared upstream', async () => {
    const venue = mockVenue(pmxt);
    const book = await venue.watchOrderBook(outcomeId);
    expect(book.bids.length).toBeGreaterThan(0);
    expect(app.streams.http.size).toBe(1);
    expect(app.streams.hub.keys).toEqual([`mock watchOrderBook ${JSON.stringify([outcomeId])}`]);
    await venue.unwatchOrderBook(outcomeId);
    expect(app.streams.http.size).toBe(0);
  });

  test('watchTrades (HTTP in pmxtjs 2.41) answers prints, and unwatchOrderBook ends an HTTP watch', async () => {
    const venue = mockVenue();
    const trades = await venue.watchTrades(outcomeId);
    expect(trades[0]).toMatchObject({ price: expect.any(Number), amount: expect.any(Number) });
    await venue.unwatchOrderBook(outcomeId);
  });
});
