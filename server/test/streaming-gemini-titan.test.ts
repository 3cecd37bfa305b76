import type { OrderBook, Trade } from '@predgate/core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';
import { Client, FakeVenueSocket, dataOf, errorOf, until, venueStreaming } from './streaming-support.js';

/*
 * Gemini's market-data websocket in the documented shapes: `{id, method,
 * params: ["<symbol>@depth20"]}` answered `{id, status: 200}`; partial-depth
 * messages carry the top of the contract's YES book whole; trades are
 * `{E (ns), s, t, p, q, m}`. The symbol may come back in lower case.
 */
const symbol = 'GEMI-DEMNOM2028-DEMNOM28AOC';

interface Command {
  id: string;
  method: string;
  params: string[];
}

let venue: FakeVenueSocket;
let app: TestApp;
let url: string;
beforeAll(async () => {
  venue = await FakeVenueSocket.start();
  app = await testApp({
    config: {
      port: 0,
      host: '127.0.0.1',
      streaming: venueStreaming(300),
    },
    manifest: {
      venues: [
        {
          id: 'gemini-titan',
          package: '@predgate/adapter-gemini-titan',
          version: '^0.1.0',
          config: { wsUrl: venue.url, stream: { pingIntervalMs: 50, backoff: { initialMs: 10, maxMs: 20 } } },
        },
      ],
    },
  });
  await app.server.start();
  url = `${app.server.info.uri.replace('http', 'ws')}/ws?apiKey=${apiKey}`;
});
afterAll(async () => {
  await app.stop();
  await venue.close();
});
afterEach(() => until(() => app.streams.hub.size === 0 && venue.sockets.size === 0, 2_000, 'no upstream and no venue connection left'));

const commands = (method: string) => venue.messages<Command>((message) => message.method === method);
/** Answers every command so far as the venue does. */
const acknowledge = () => {
  for (const command of commands('subscribe')) venue.send({ id: command.id, status: 200 });
};
const bookIn = (frame: Record<string, unknown>) => frame.data as OrderBook;
const depth = (bid: string, ask: string) => ({ lastUpdateId: 7, symbol: symbol.toLowerCase(), bids: [[bid, '1200']], asks: [[ask, '500']] });

describe('Gemini market-data websocket replayed on 127.0.0.1, through /ws', () => {
  test('YES and NO clients share one depth stream; NO is the mirror; the last leaving unsubscribes and closes', async () => {
    const a = await Client.open(url);
    const b = await Client.open(url);
    a.send({ id: 'y', action: 'subscribe', exchange: 'gemini-titan', method: 'watchOrderBook', args: [`${symbol}:yes`] });
    await until(() => commands('subscribe').length === 1);
    expect(commands('subscribe')[0]!.params).toEqual([`${symbol}@depth20`]);
    acknowledge();
    venue.send(depth('0.27', '0.29'));
    const yes = bookIn(await a.next(dataOf('y')));
    expect(yes.bids).toEqual([{ price: 0.27, size: 1200 }]);
    expect(yes.asks).toEqual([{ price: 0.29, size: 500 }]);

    b.send({ id: 'n', action: 'subscribe', exchange: 'gemini-titan', method: 'watchOrderBook', args: [`${symbol}:no`] });
    const no = bookIn(await b.next(dataOf('n')));
    expect(no.bids).toEqual([{ price: 0.71, size: 500 }]);
    expect(no.asks).toEqual([{ price: 0.73, size: 1200 }]);
    expect(commands('subscribe')).toHaveLength(1);
    expect(venue.upgrades).toHaveLength(1);

    await a.close();
    await b.close();
    await until(() => venue.sockets.size === 0);
  });

  test('trades, a bad message as a retryable error frame, and a dropped connection redialled and resubscribed', async () => {
    const client = await Client.open(url);
    client.send({ id: 't', action: 'subscribe', exchange: 'gemini-titan', method: 'watchTrades', args: [`${symbol}:no`] });
    client.send({ id: 'k', action: 'subscribe', exchange: 'gemini-titan', method: 'watchOrderBook', args: [`${symbol}:yes`] });
    const before = commands('subscribe').length;
    await until(() => venue.sockets.size === 1 && commands('subscribe').flatMap((command) => command.params).length >= 2 + before);
    acknowledge();
    venue.send({ E: 1_787_199_000_000_000_000, s: symbol.toLowerCase(), t: 2840140800000001, p: '0.27', q: '150', m: false });
    expect((await client.next(dataOf('t'))).data as Trade[]).toEqual([
      { id: '2840140800000001', timestamp: 1_787_199_000_000, price: 0.73, amount: 150, side: 'sell', outcomeId: `${symbol}:no` },
    ]);

    venue.send({ lastUpdateId: 8, symbol, bids: [['x', '1']], asks: [] });
    expect((await client.next(errorOf('k'))).error).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', retryable: true });
    expect(client.count(dataOf('k'))).toBe(0);

    const connections = venue.upgrades.length;
    const subscribed = commands('subscribe').flatMap((command) => command.params).length;
    venue.drop();
    await until(() => venue.upgrades.length > connections && commands('subscribe').flatMap((command) => command.params).length === subscribed + 2);
    const from = client.frames.length;
    venue.send(depth('0.3', '0.32'));
    expect(bookIn(await client.next(dataOf('k'), 2_000, from)).bids[0]!.price).toBe(0.3);
    await client.close();
  });
});
