import { readFileSync } from 'node:fs';
import type { OrderBook, Trade } from '@predgate/core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';
import { Client, FakeVenueSocket, dataOf, errorOf, until, venueStreaming } from './streaming-support.js';

/** The shared market-channel payloads (copied into the archive's fixtures): a snapshot and the delta recorded right after it, and a second pair. */
const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../archive/test/fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;
const book1 = fixture('ws-book-1.json');
const change1 = fixture('ws-price-change-1.json');
const book2 = fixture('ws-book-2.json');
const change2 = fixture('ws-price-change-2.json');
const token1 = String(book1.asset_id);
const token2 = String(book2.asset_id);

let venue: FakeVenueSocket;
let app: TestApp;
let url: string;
beforeAll(async () => {
  venue = await FakeVenueSocket.start();
  app = await testApp({
    config: {
      port: 0,
      host: '127.0.0.1',
      streaming: venueStreaming(200),
    },
    manifest: {
      venues: [
        {
          id: 'polymarket',
          package: '@predgate/adapter-polymarket',
          version: '^0.1.0',
          config: { marketChannel: { url: venue.url, pingIntervalMs: 50, backoff: { initialMs: 10, maxMs: 20 } } },
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

const subscribeMessages = () => venue.messages((message) => Array.isArray(message.assets_ids) && message.operation !== 'unsubscribe');
const subscribedTokens = () => subscribeMessages().flatMap((message) => message.assets_ids as string[]);
const bookIn = (frame: Record<string, unknown>) => frame.data as OrderBook;

describe('Polymarket market channel replayed on 127.0.0.1, through /ws', () => {
  test('a snapshot then the recorded delta give full books; the delta moves the best bid to 0.301 as the venue says', async () => {
    const client = await Client.open(url);
    const before = subscribeMessages().length;
    client.send({ id: 'b', action: 'subscribe', exchange: 'polymarket', method: 'watchOrderBook', args: [token1] });
    await client.next((frame) => frame.event === 'subscribed');
    await until(() => subscribeMessages().length > before);
    expect(subscribeMessages().at(-1)).toMatchObject({ assets_ids: [token1], type: 'market' });
    // The first frame after subscribing is an array of snapshots.
    venue.send([book1]);
    const first = bookIn(await client.next(dataOf('b')));
    expect(first.bids[0]!.price).toBeGreaterThan(first.bids.at(-1)!.price);
    expect(first.asks[0]!.price).toBeLessThan(first.asks.at(-1)!.price);
    expect(first.timestamp).toBe(Number(book1.timestamp));
    expect(first.datetime).toBe(new Date(Number(book1.timestamp)).toISOString());
    const bestBefore = first.bids[0]!.price;
    venue.send(change1);
    const from = client.frames.length;
    const second = bookIn(await client.next(dataOf('b'), 2_000, from));
    expect(second.bids[0]).toEqual({ price: 0.301, size: 1000 });
    expect(second.asks[0]!.price).toBe(0.397);
    expect(second.bids.length).toBe(first.bids.length + (first.bids.some((level) => level.price === 0.301) ? 0 : 1));
    expect(bestBefore).toBeLessThan(0.301);
    expect(second.timestamp).toBe(Number(change1.timestamp));
    await client.close();
  });

  test('two clients on one token share one venue subscription; the newcomer gets the current book at once; the venue hears the unsubscribe', async () => {
    const one = await Client.open(url);
    const two = await Client.open(url);
    const before = subscribedTokens().length;
    one.send({ id: 'x', action: 'subscribe', exchange: 'polymarket', method: 'watchOrderBook', args: [token2] });
    await until(() => subscribedTokens().length > before);
    venue.send(book2);
    await one.next(dataOf('x'));
    two.send({ id: 'y', action: 'subscribe', exchange: 'polymarket', method: 'watchOrderBook', args: [token2, 1] });
    const shared = bookIn(await two.next(dataOf('y')));
    expect(shared.bids).toHaveLength(1);
    expect(subscribedTokens().length).toBe(before + 1);
    expect(app.streams.hub.size).toBe(1);
    // A removal (size "0") on the other token of the market changes nothing here; a delta on this token does.
    venue.send({ ...change2, price_changes: [{ ...(change2.price_changes as object[])[0], asset_id: token2, price: '0.002', size: '7', side: 'BUY' }] });
    const updated = bookIn(await two.next((frame) => dataOf('y')(frame) && (frame.data as OrderBook).bids[0]!.price === 0.004));
    expect(updated.bids).toEqual([{ price: 0.004, size: 100 }]);
    const full = bookIn(await one.next((frame) => dataOf('x')(frame) && (frame.data as OrderBook).bids.length === 3));
    expect(full.bids.map((level) => level.price)).toEqual([0.004, 0.002, 0.001]);

    const unsubscribes = venue.messages((message) => message.operation === 'unsubscribe').length;
    one.send({ id: 'x', action: 'unsubscribe' });
    await one.next((frame) => frame.event === 'unsubscribed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(venue.messages((message) => message.operation === 'unsubscribe')).toHaveLength(unsubscribes);
    await two.close();
    // The last watcher gone, the connection closes (it held no other token).
    await until(() => venue.sockets.size === 0);
    await one.close();
  });

  test('a token the venue never answers gets a retryable NETWORK_ERROR frame after the data timeout, not a hang', async () => {
    const client = await Client.open(url);
    client.send({ id: 'silent', action: 'subscribe', exchange: 'polymarket', method: 'watchOrderBook', args: ['123456789'] });
    const frame = await client.next(errorOf('silent'), 1_000);
    expect(frame.error).toMatchObject({ code: 'NETWORK_ERROR', retryable: true, message: expect.stringContaining('200 ms') });
    await client.close();
  });

  test('the venue dropping the connection: an error frame, a redial that subscribes the token again, and books resume', async () => {
    const client = await Client.open(url);
    client.send({ id: 'r', action: 'subscribe', exchange: 'polymarket', method: 'watchOrderBook', args: [token1] });
    await until(() => venue.sockets.size === 1 && subscribedTokens().includes(token1));
    venue.send([book1]);
    await client.next(dataOf('r'));
    const before = subscribeMessages().length;
    const connections = venue.upgrades.length;
    venue.drop();
    expect((await client.next(errorOf('r'))).error).toMatchObject({ code: 'NETWORK_ERROR', retryable: true });
    await until(() => venue.upgrades.length > connections && subscribeMessages().length > before);
    expect(subscribeMessages().at(-1)).toMatchObject({ assets_ids: [token1] });
    expect(venue.sockets.size).toBe(1);
    // While the fresh snapshot has not come, a delta reports the gap; the snapshot clears it.
    venue.send(change1);
    const gapped = bookIn(await client.next((frame) => frame.id === 'r' && frame.event === 'data' && Boolean((frame.data as OrderBook).sourceMetadata?.gap)));
    expect(gapped.sourceMetadata?.gap).toMatchObject({ complete: false });
    venue.send([book1]);
    const from = client.frames.length;
    const fresh = bookIn(await client.next(dataOf('r'), 2_000, from));
    expect(fresh.sourceMetadata?.gap).toBeUndefined();
    await client.close();
  });

  test('frames the venue sends in a shape we do not read are error frames; the stream goes on', async () => {
    const client = await Client.open(url);
    client.send({ id: 'd', action: 'subscribe', exchange: 'polymarket', method: 'watchOrderBook', args: [token1] });
    await until(() => venue.sockets.size === 1 && subscribedTokens().includes(token1));
    venue.send([book1]);
    await client.next(dataOf('d'));
    venue.send('{"event_type": "book", ');
    expect((await client.next(errorOf('d'))).error).toMatchObject({
      code: 'EXCHANGE_NOT_AVAILABLE',
      retryable: true,
      message: expect.stringContaining('not JSON'),
    });
    venue.send({ event_type: 'price_change', market: '0x1', timestamp: '1790658674035', changes: [] });
    expect(
      (await client.next((frame) => frame.event === 'error' && String((frame.error as { message: string }).message).includes('price_changes'))).error,
    ).toMatchObject({
      code: 'EXCHANGE_NOT_AVAILABLE',
    });
    const from = client.frames.length;
    venue.send(change1);
    expect(bookIn(await client.next(dataOf('d'), 2_000, from)).bids[0]!.price).toBe(0.301);
    await client.close();
  });

  test('watchTrades: last_trade_price messages become prints; the venue gets PING keepalives', async () => {
    const client = await Client.open(url);
    client.send({ id: 't', action: 'subscribe', exchange: 'polymarket', method: 'watchTrades', args: [token1] });
    await until(() => venue.sockets.size === 1 && subscribedTokens().includes(token1));
    venue.send({
      event_type: 'last_trade_price',
      asset_id: token1,
      market: book1.market,
      price: '0.456',
      size: '219.217767',
      side: 'BUY',
      fee_rate_bps: '0',
      timestamp: '1790658680000',
      transaction_hash: '0xabc',
    });
    const trades = (await client.next(dataOf('t'))).data as Trade[];
    expect(trades).toEqual([{ id: '0xabc', timestamp: 1790658680000, price: 0.456, amount: 219.217767, side: 'buy', outcomeId: token1 }]);
    await until(() => venue.received.includes('PING'), 1_000);
    await client.close();
  });
});
