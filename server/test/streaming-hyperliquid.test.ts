import type { OrderBook, Trade } from '@predgate/core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';
import { Client, FakeVenueSocket, dataOf, errorOf, until, venueStreaming } from './streaming-support.js';

/*
 * Hyperliquid's public websocket in the documented shapes: `subscribe` /
 * `unsubscribe` messages naming `{type, coin}`; `l2Book` messages carry the
 * whole book of one side coin, `trades` messages a list of prints.
 */
const yes = '100002020';
const coin = '#2020';

interface Command {
  method: string;
  subscription?: { type: string; coin: string };
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
          id: 'hyperliquid',
          package: '@predgate/adapter-hyperliquid',
          version: '^0.1.0',
          config: { wsUrl: `${venue.url}/ws`, stream: { pingIntervalMs: 50, backoff: { initialMs: 10, maxMs: 20 } } },
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

const commands = (method: string, type?: string) =>
  venue.messages<Command>((message) => message.method === method && (type === undefined || (message.subscription as { type?: string })?.type === type));
const bookIn = (frame: Record<string, unknown>) => frame.data as OrderBook;
const l2 = (time: number, bid: string, ask: string) => ({
  channel: 'l2Book',
  data: {
    coin,
    time,
    levels: [
      [
        { px: bid, sz: '100.0', n: 2 },
        { px: '0.05', sz: '7.0', n: 1 },
      ],
      [{ px: ask, sz: '40.0', n: 1 }],
    ],
  },
});

describe('Hyperliquid websocket replayed on 127.0.0.1, through /ws', () => {
  test('two clients share one l2Book subscription; each message is the whole book; the last leaving unsubscribes and closes', async () => {
    const a = await Client.open(url);
    const b = await Client.open(url);
    a.send({ id: 'a', action: 'subscribe', exchange: 'hyperliquid', method: 'watchOrderBook', args: [yes] });
    await until(() => commands('subscribe', 'l2Book').length === 1);
    expect(commands('subscribe').at(-1)).toEqual({ method: 'subscribe', subscription: { type: 'l2Book', coin } });
    venue.send(l2(1_783_620_881_693, '0.064', '0.0651'));
    const first = bookIn(await a.next(dataOf('a')));
    expect(first.bids).toEqual([
      { price: 0.064, size: 100 },
      { price: 0.05, size: 7 },
    ]);
    expect(first.asks).toEqual([{ price: 0.0651, size: 40 }]);
    expect(first.timestamp).toBe(1_783_620_881_693);

    b.send({ id: 'b', action: 'subscribe', exchange: 'hyperliquid', method: 'watchOrderBook', args: [yes] });
    await b.next(dataOf('b'));
    const from = a.frames.length;
    venue.send(l2(1_783_620_882_000, '0.063', '0.066'));
    expect(bookIn(await a.next(dataOf('a'), 2_000, from)).bids[0]).toEqual({ price: 0.063, size: 100 });
    expect(venue.upgrades).toHaveLength(1);
    expect(commands('subscribe', 'l2Book')).toHaveLength(1);

    await a.close();
    await b.close();
    await until(() => commands('unsubscribe', 'l2Book').length === 1 || venue.sockets.size === 0);
    await until(() => venue.sockets.size === 0);
  });

  test('trades, a bad message as a retryable error frame, and a dropped connection redialled and resubscribed', async () => {
    const client = await Client.open(url);
    client.send({ id: 't', action: 'subscribe', exchange: 'hyperliquid', method: 'watchTrades', args: [yes] });
    client.send({ id: 'k', action: 'subscribe', exchange: 'hyperliquid', method: 'watchOrderBook', args: [yes] });
    const before = commands('subscribe').length;
    await until(() => venue.sockets.size === 1 && commands('subscribe').length === before + 2);
    venue.send({
      channel: 'trades',
      data: [{ coin, side: 'A', px: '0.0646', sz: '527.0', time: 1_783_620_879_512, hash: '0x6c', tid: 921447733019882, users: ['0x1', '0x2'] }],
    });
    expect((await client.next(dataOf('t'))).data as Trade[]).toEqual([
      { id: '921447733019882', timestamp: 1_783_620_879_512, price: 0.0646, amount: 527, side: 'sell', outcomeId: yes },
    ]);

    venue.send({ channel: 'l2Book', data: { coin, time: 1, levels: [[{ px: 'x', sz: '1', n: 1 }]] } });
    expect((await client.next(errorOf('k'))).error).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', retryable: true });
    expect(client.count(dataOf('k'))).toBe(0);

    const connections = venue.upgrades.length;
    const subscribed = commands('subscribe').length;
    venue.drop();
    await until(() => venue.upgrades.length > connections && commands('subscribe').length === subscribed + 2);
    const from = client.frames.length;
    venue.send(l2(2, '0.07', '0.08'));
    expect(bookIn(await client.next(dataOf('k'), 2_000, from)).bids[0]!.price).toBe(0.07);
    await client.close();
  });
});
