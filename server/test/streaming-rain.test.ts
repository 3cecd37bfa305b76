import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Trade } from '@predgate/core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';
import { Client, FakeVenueSocket, dataOf, errorOf, until, venueStreaming } from './streaming-support.js';

/** The recorded pool (USD₮0, options 0…3): the adapter reads it for the outcome id and the token decimals. */
const recordedPool = readFileSync(new URL('../../adapters/rain/test/fixtures/payloads/pool-by-id.json', import.meta.url), 'utf8');
const poolId = '6abf65b824801c4f3f7d6220';
const sinner = `rain:${poolId}:0`;
const alcaraz = `rain:${poolId}:1`;

let venue: FakeVenueSocket;
let rest: Server;
let app: TestApp;
let url: string;
beforeAll(async () => {
  venue = await FakeVenueSocket.start();
  rest = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.url === `/pools/pool/${poolId}`) return response.end(recordedPool);
    response.statusCode = 404;
    response.end('{"message":"Pool not found"}');
  });
  rest.listen(0, '127.0.0.1');
  await once(rest, 'listening');
  app = await testApp({
    config: {
      port: 0,
      host: '127.0.0.1',
      streaming: venueStreaming(300),
    },
    manifest: {
      venues: [
        {
          id: 'rain',
          package: '@predgate/adapter-rain',
          version: '^0.1.0',
          config: {
            baseUrl: `http://127.0.0.1:${(rest.address() as AddressInfo).port}`,
            ws: venue.url,
            stream: { pingIntervalMs: 50, backoff: { initialMs: 10, maxMs: 20 } },
          },
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
  await new Promise((resolve) => rest.close(resolve));
});
afterEach(() => until(() => app.streams.hub.size === 0 && venue.sockets.size === 0, 2_000, 'no upstream and no venue connection left'));

const joins = () => venue.received.filter((frame) => frame === 40).length;
const tradesIn = (frame: Record<string, unknown>) => frame.data as Trade[];
/** An AMM buy of option `choice`: collateral and shares in USD₮0 base units. */
const entry = (id: string, choice: number, amount: string, optionAmount: string) =>
  venue.send(
    `42${JSON.stringify([
      `enter-option/${poolId}`,
      {
        pool: { _id: poolId, token: { tokenDecimals: 6 } },
        enterOption: { _id: id, createdAt: '2026-11-26T08:00:05.000Z', investment: [{ choiceIndex: choice, amount, optionAmount }] },
      },
    ])}`,
  );

/** The venue's side of a new connection: the Engine.IO open, then the default namespace joined. */
async function accept(connections: number): Promise<void> {
  await until(() => venue.upgrades.length > connections && venue.sockets.size === 1, 2_000, 'a venue connection');
  expect(venue.upgrades.at(-1)!.url).toBe('/socket.io/?EIO=4&transport=websocket');
  const joined = joins();
  venue.send('0{"sid":"engine","upgrades":[],"pingInterval":25000,"pingTimeout":20000}');
  // `40` parses as the JSON number 40 in the fake's log.
  await until(() => joins() > joined, 2_000, 'the namespace join');
  venue.send('40{"sid":"default"}');
}

describe('Rain Socket.IO pool events replayed on 127.0.0.1, through /ws', () => {
  test('an option’s AMM buys and fills arrive as trades; a second client shares the connection; the last leaving closes it', async () => {
    const client = await Client.open(url);
    client.send({ id: 'a', action: 'subscribe', exchange: 'rain', method: 'watchTrades', args: [sinner] });
    await accept(venue.upgrades.length);
    entry('entry-1', 0, '12500000', '25000000');
    const first = tradesIn(await client.next(dataOf('a')));
    expect(first).toEqual([
      expect.objectContaining({ id: 'entry-1', timestamp: Date.parse('2026-11-26T08:00:05.000Z'), price: 0.5, amount: 25, side: 'buy', outcomeId: sinner }),
    ]);

    const second = await Client.open(url);
    const connections = venue.upgrades.length;
    second.send({ id: 'b', action: 'subscribe', exchange: 'rain', method: 'watchTrades', args: [alcaraz] });
    await until(() => app.streams.hub.size === 2, 2_000, 'the second upstream');
    const seen = client.frames.length;
    // The second watcher attaches once the adapter has read the pool, some turns after the upstream opens:
    // the venue repeats the buy until it reaches the second client.
    const repeating = setInterval(() => entry('entry-2', 1, '3000000', '4000000'), 10);
    const secondTrades = await second.next(dataOf('b')).finally(() => clearInterval(repeating));
    venue.send(
      `42${JSON.stringify([
        `order-filled/${poolId}`,
        { pool: { _id: poolId }, filledOrder: { _id: 'order-1', orderType: 'buy', option: 0, pricePerShare: '0.42', quantity: '3000000' } },
      ])}`,
    );
    expect(tradesIn(secondTrades)).toEqual([expect.objectContaining({ id: 'entry-2', price: 0.75, amount: 4, side: 'buy', outcomeId: alcaraz })]);
    expect(tradesIn(await client.next(dataOf('a'), 2_000, seen)).at(-1)).toEqual(
      expect.objectContaining({ id: 'order-1', price: 0.42, amount: 3, side: 'sell', outcomeId: sinner }),
    );
    expect(venue.upgrades.length).toBe(connections);
    await second.close();
    expect(venue.sockets.size).toBe(1);
    await client.close();
    await until(() => venue.sockets.size === 0, 2_000, 'the venue connection closed');
  });

  test('an unreadable event is a retryable error frame, not a wrong trade; a dropped connection is redialled; an unknown pool ends the watch', async () => {
    const client = await Client.open(url);
    client.send({ id: 'r', action: 'subscribe', exchange: 'rain', method: 'watchTrades', args: [sinner] });
    await accept(venue.upgrades.length);
    entry('entry-3', 0, 'lots', '25000000');
    expect((await client.next(errorOf('r'))).error).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', retryable: true });
    expect(client.count(dataOf('r'))).toBe(0);

    const connections = venue.upgrades.length;
    const from = client.frames.length;
    venue.drop();
    expect((await client.next(errorOf('r'), 2_000, from)).error).toMatchObject({ code: 'NETWORK_ERROR', retryable: true });
    await accept(connections);
    entry('entry-4', 0, '1000000', '2000000');
    expect(tradesIn(await client.next(dataOf('r'))).at(-1)).toEqual(expect.objectContaining({ id: 'entry-4', price: 0.5, amount: 2 }));

    client.send({ id: 'x', action: 'subscribe', exchange: 'rain', method: 'watchTrades', args: ['rain:000000000000000000000000:0'] });
    expect((await client.next(errorOf('x'))).error).toMatchObject({ retryable: false });
    await client.close();
  });
});
