import { readFileSync } from 'node:fs';
import type { OrderBook } from '@predgate/core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';
import { Client, FakeVenueSocket, dataOf, errorOf, until, venueStreaming } from './streaming-support.js';

/** The recorded REST book, which the websocket pushes inside `orderbookUpdate` (raw 6-decimal sizes). */
const recorded = JSON.parse(readFileSync(new URL('../../adapters/limitless/test/fixtures/payloads/orderbook.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>;
const slug = 'eth-up-or-down-daily-1788105600';
const other = 'btc-above-120k-1788105600';

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
          id: 'limitless',
          package: '@predgate/adapter-limitless',
          version: '^0.1.0',
          config: { ws: venue.url, stream: { pingIntervalMs: 50, backoff: { initialMs: 10, maxMs: 20 } } },
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

/** Socket.IO events the adapter emitted on `/markets`, `[name, payload]`. */
const events = (name: string) =>
  venue.received
    .filter((frame): frame is string => typeof frame === 'string' && frame.startsWith('42/markets,'))
    .map((frame) => JSON.parse(frame.slice('42/markets,'.length)) as [string, { marketSlugs: string[] }])
    .filter(([event]) => event === name)
    .map(([, payload]) => payload.marketSlugs);
const joins = () => venue.received.filter((frame) => frame === '40/markets,').length;
const push = (marketSlug: string, orderbook: unknown) =>
  venue.send(`42/markets,${JSON.stringify(['orderbookUpdate', { marketSlug, orderbook, timestamp: '2026-08-31T07:30:05.000Z' }])}`);
const bookIn = (frame: Record<string, unknown>) => frame.data as OrderBook;

/** The venue's side of a new connection: the Engine.IO open, then the `/markets` namespace joined. */
async function accept(connections: number): Promise<void> {
  await until(() => venue.upgrades.length > connections && venue.sockets.size === 1, 2_000, 'a venue connection');
  expect(venue.upgrades.at(-1)!.url).toBe('/socket.io/?EIO=4&transport=websocket');
  const joined = joins();
  venue.send('0{"sid":"engine","upgrades":[],"pingInterval":25000,"pingTimeout":20000}');
  await until(() => joins() > joined, 2_000, 'the namespace join');
  venue.send('40/markets,{"sid":"markets"}');
}

describe('Limitless Socket.IO websocket replayed on 127.0.0.1, through /ws', () => {
  test('a slug is subscribed on /markets and each orderbookUpdate is a full YES book; a second client shares the connection; the last leaving unsubscribes and closes', async () => {
    const client = await Client.open(url);
    const subscribes = events('subscribe_market_prices').length;
    client.send({ id: 'a', action: 'subscribe', exchange: 'limitless', method: 'watchOrderBook', args: [slug] });
    await accept(venue.upgrades.length);
    await until(() => events('subscribe_market_prices').length > subscribes);
    expect(events('subscribe_market_prices').at(-1)).toEqual([slug]);
    push(slug, recorded);
    const first = bookIn(await client.next(dataOf('a')));
    expect(first.bids[0]).toEqual({ price: 0.012, size: 83.334 });
    expect(first.asks[0]!.price).toBeGreaterThan(first.bids[0]!.price);
    expect(first.timestamp).toBe(Date.parse('2026-08-31T07:30:05.000Z'));
    expect(first.datetime).toBe('2026-08-31T07:30:05.000Z');

    // A second client of the same book shares the upstream: no new connection, no new subscribe.
    const second = await Client.open(url);
    const connections = venue.upgrades.length;
    const before = events('subscribe_market_prices').length;
    second.send({ id: 'b', action: 'subscribe', exchange: 'limitless', method: 'watchOrderBook', args: [slug] });
    // It starts from the book the upstream last delivered.
    expect(bookIn(await second.next(dataOf('b'))).bids[0]).toEqual({ price: 0.012, size: 83.334 });
    const seen = client.frames.length;
    const seenSecond = second.frames.length;
    push(slug, { ...recorded, bids: [{ price: 0.02, size: 5_000_000, side: 'BUY' }] });
    expect(bookIn(await second.next(dataOf('b'), 2_000, seenSecond)).bids).toEqual([{ price: 0.02, size: 5 }]);
    expect(bookIn(await client.next(dataOf('a'), 2_000, seen)).bids).toEqual([{ price: 0.02, size: 5 }]);
    expect(venue.upgrades.length).toBe(connections);
    expect(events('subscribe_market_prices')).toHaveLength(before);

    // Another slug on the same connection; leaving it unsubscribes it alone.
    second.send({ id: 'c', action: 'subscribe', exchange: 'limitless', method: 'watchOrderBook', args: [other] });
    await until(() => events('subscribe_market_prices').length > before);
    expect(events('subscribe_market_prices').at(-1)).toEqual([slug, other]);
    second.send({ id: 'c', action: 'unsubscribe' });
    await until(() => events('unsubscribe_market_prices').some((slugs) => slugs.includes(other)));
    expect(venue.sockets.size).toBe(1);
    await second.close();
    await client.close();
    await until(() => events('unsubscribe_market_prices').some((slugs) => slugs.includes(slug)) && venue.sockets.size === 0);
  });

  test('an unreadable book is a retryable error frame, not a wrong book; a dropped connection is redialled, rejoined and resubscribed', async () => {
    const client = await Client.open(url);
    client.send({ id: 'r', action: 'subscribe', exchange: 'limitless', method: 'watchOrderBook', args: [slug] });
    await accept(venue.upgrades.length);
    await until(() => events('subscribe_market_prices').at(-1)?.[0] === slug);
    push(slug, recorded);
    await client.next(dataOf('r'));

    push(slug, { bids: [{ price: 'not a price', size: 1 }], asks: [] });
    expect((await client.next(errorOf('r'))).error).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', retryable: true });
    expect(client.count(dataOf('r'))).toBe(1);

    const connections = venue.upgrades.length;
    const before = events('subscribe_market_prices').length;
    const from = client.frames.length;
    venue.drop();
    expect((await client.next(errorOf('r'), 2_000, from)).error).toMatchObject({ code: 'NETWORK_ERROR', retryable: true });
    await accept(connections);
    await until(() => events('subscribe_market_prices').length > before);
    expect(events('subscribe_market_prices').at(-1)).toEqual([slug]);
    const after = client.frames.length;
    push(slug, recorded);
    expect(bookIn(await client.next(dataOf('r'), 2_000, after)).bids[0]).toEqual({ price: 0.012, size: 83.334 });
    await client.close();
  });
});
