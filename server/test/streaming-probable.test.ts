import type { OrderBook } from '@predgate/core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';
import { Client, FakeVenueSocket, dataOf, errorOf, until, venueStreaming } from './streaming-support.js';

/** Probable's public websocket: SUBSCRIBE/UNSUBSCRIBE commands naming `book:<tokenId>` streams; each stream message is a whole book. */
const yes = '42922145754268586232753586497078434283008194607014016171721522108902381902084';
const no = '5722005404824512810116175401897660245563008472737131911791837693804332853698';

interface Command {
  id: number;
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
          id: 'probable',
          package: '@predgate/adapter-probable',
          version: '^0.1.0',
          config: { wsUrl: `${venue.url}/public/api/v1`, stream: { pingIntervalMs: 50, backoff: { initialMs: 10, maxMs: 20 } } },
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

const commands = (method?: string) =>
  venue.messages<Command>((message) => typeof message.method === 'string' && (method === undefined || message.method === method));
const bookIn = (frame: Record<string, unknown>) => frame.data as OrderBook;
const whole = (token: string, bid: string) => ({
  stream: `book:${token}`,
  data: { asset_id: token, timestamp: '1778767354', bids: [{ price: bid, size: '100' }], asks: [{ price: '0.63', size: '900' }] },
});

describe('Probable websocket replayed on 127.0.0.1, through /ws', () => {
  test('a whole book then price changes give full books; two clients share one upstream; the last leaving unsubscribes and closes', async () => {
    const first = await Client.open(url);
    const second = await Client.open(url);
    first.send({ id: 'a', action: 'subscribe', exchange: 'probable', method: 'watchOrderBook', args: [yes] });
    await until(() => commands('SUBSCRIBE').length === 1);
    expect(venue.upgrades.at(-1)!.url).toBe('/public/api/v1/ws?chainId=56');
    const subscribe = commands('SUBSCRIBE')[0]!;
    expect(subscribe.params).toEqual([`book:${yes}`]);
    venue.send({ id: subscribe.id, status: 200, result: null });
    venue.send(whole(yes, '0.6'));
    const book = bookIn(await first.next(dataOf('a')));
    expect(book.bids).toEqual([{ price: 0.6, size: 100 }]);
    expect(book.timestamp).toBe(1_778_767_354_000);

    second.send({ id: 'b', action: 'subscribe', exchange: 'probable', method: 'watchOrderBook', args: [yes] });
    expect(bookIn(await second.next(dataOf('b'))).bids).toEqual([{ price: 0.6, size: 100 }]);
    expect(commands('SUBSCRIBE')).toHaveLength(1);

    const from = first.frames.length;
    venue.send({ stream: `book:${yes}`, data: { price_changes: [{ asset_id: yes, price: '0.61', size: '5', side: 'BUY' }] } });
    expect(bookIn(await first.next(dataOf('a'), 2_000, from)).bids).toEqual([
      { price: 0.61, size: 5 },
      { price: 0.6, size: 100 },
    ]);

    await first.close();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(commands('UNSUBSCRIBE')).toHaveLength(0);
    await second.close();
    await until(() => venue.sockets.size === 0);
  });

  test('a dropped connection is redialled and resubscribed; an unreadable book is an error frame, not a book', async () => {
    const client = await Client.open(url);
    const before = commands('SUBSCRIBE').length;
    client.send({ id: 'r', action: 'subscribe', exchange: 'probable', method: 'watchOrderBook', args: [no] });
    await until(() => commands('SUBSCRIBE').length === before + 1 && venue.sockets.size === 1);
    venue.send(whole(no, '0.37'));
    await client.next(dataOf('r'));
    const connections = venue.upgrades.length;
    venue.drop();
    expect((await client.next(errorOf('r'))).error).toMatchObject({ code: 'NETWORK_ERROR', retryable: true });
    await until(() => venue.upgrades.length > connections && commands('SUBSCRIBE').length === before + 2 && venue.sockets.size === 1);
    expect(commands('SUBSCRIBE').at(-1)!.params).toEqual([`book:${no}`]);

    let from = client.frames.length;
    venue.send({ stream: `book:${no}`, data: { bids: [{ price: '1.7', size: '1' }], asks: [] } });
    expect((await client.next(errorOf('r'), 2_000, from)).error).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', retryable: true });
    from = client.frames.length;
    venue.send(whole(no, '0.38'));
    expect(bookIn(await client.next(dataOf('r'), 2_000, from)).bids).toEqual([{ price: 0.38, size: 100 }]);
    await client.close();
  });
});
