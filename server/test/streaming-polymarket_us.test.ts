import { createPrivateKey, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { OrderBook, Trade } from '@predgate/core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';
import { Client, FakeVenueSocket, dataOf, errorOf, until, venueStreaming } from './streaming-support.js';

/** The recorded REST book; the markets websocket pushes the same `marketData` object. */
const recorded = JSON.parse(readFileSync(new URL('../../adapters/polymarket-us/test/fixtures/payloads/orderbook.json', import.meta.url), 'utf8')) as {
  marketData: Record<string, unknown>;
};
const slug = 'tec-mlb-nlchamp-2026-09-27-mil';
/** A test key: the seed is 32 bytes of 7s, never a real account's. */
const streamKey = { apiKey: '9f2c1b7e-4a63-4d21-8e5f-0b7a3c9d1e42', privateKey: Buffer.alloc(32, 7).toString('base64') };

interface Command {
  subscribe?: { requestId: string; subscriptionType: string; marketSlugs: string[] };
  unsubscribe?: { requestId: string };
}

let venue: FakeVenueSocket;
let app: TestApp;
let url: string;
beforeAll(async () => {
  venue = await FakeVenueSocket.start();
  const stream = { pingIntervalMs: 50, backoff: { initialMs: 10, maxMs: 20 } };
  app = await testApp({
    config: {
      port: 0,
      host: '127.0.0.1',
      streaming: venueStreaming(300),
    },
    manifest: {
      venues: [
        {
          id: 'polymarket_us',
          package: '@predgate/adapter-polymarket-us',
          version: '^0.1.0',
          config: { wsUrl: `${venue.url}/v1/ws/markets`, stream: { ...stream, credentials: streamKey } },
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

const subscribes = (type = 'SUBSCRIPTION_TYPE_MARKET_DATA') =>
  venue
    .messages<Command>((message) => typeof message.subscribe === 'object')
    .flatMap((command) => (command.subscribe!.subscriptionType === type ? [command.subscribe!] : []));
const unsubscribes = () => venue.messages<Command>((message) => typeof message.unsubscribe === 'object').map((command) => command.unsubscribe!.requestId);
const push = (requestId: string, marketData: Record<string, unknown>) =>
  venue.send({ requestId, subscriptionType: 'SUBSCRIPTION_TYPE_MARKET_DATA', marketData });
const bookIn = (frame: Record<string, unknown>) => frame.data as OrderBook;

describe('Polymarket US markets websocket replayed on 127.0.0.1, through /ws', () => {
  test('the handshake is Ed25519-signed; long and short share one subscription; the long book and its mirror; the last leaving unsubscribes and closes', async () => {
    const client = await Client.open(url);
    const before = subscribes().length;
    client.send({ id: 'l', action: 'subscribe', exchange: 'polymarket_us', method: 'watchOrderBook', args: [`${slug}:long`] });
    client.send({ id: 's', action: 'subscribe', exchange: 'polymarket_us', method: 'watchOrderBook', args: [`${slug}:short`] });
    await until(() => subscribes().length > before && venue.sockets.size === 1);
    const upgrade = venue.upgrades.at(-1)!;
    expect(upgrade.url).toBe('/v1/ws/markets');
    expect(upgrade.headers['x-pm-access-key']).toBe(streamKey.apiKey);
    const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.alloc(32, 7)]);
    const publicKey = createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }));
    const signed = `${String(upgrade.headers['x-pm-timestamp'])}GET/v1/ws/markets`;
    expect(verify(null, Buffer.from(signed), publicKey, Buffer.from(String(upgrade.headers['x-pm-signature']), 'base64'))).toBe(true);
    // Once both watches are running, the venue has seen one subscription for the market.
    await client.next((frame) => frame.event === 'subscribed' && frame.id === 's');
    expect(subscribes().slice(before)).toHaveLength(1);
    const { requestId, marketSlugs } = subscribes().at(-1)!;
    expect(marketSlugs).toEqual([slug]);

    push(requestId, { ...recorded.marketData, marketSlug: slug });
    const long = bookIn(await client.next(dataOf('l')));
    const short = bookIn(await client.next(dataOf('s')));
    expect(long.bids[0]).toEqual({ price: 0.265, size: 27 });
    expect(short.asks[0]).toEqual({ price: 0.735, size: 27 });
    expect(short.bids[0]!.price).toBe(Math.round((1 - long.asks[0]!.price) * 1e6) / 1e6);
    expect(long.timestamp).toBe(Date.parse(String(recorded.marketData.transactTime)));

    client.send({ id: 'l', action: 'unsubscribe' });
    await client.next((frame) => frame.event === 'unsubscribed' && frame.id === 'l');
    expect(unsubscribes()).not.toContain(requestId);
    client.send({ id: 's', action: 'unsubscribe' });
    await until(() => unsubscribes().includes(requestId) && venue.sockets.size === 0);
    await client.close();
  });

  test('prints come priced for the side watched; a bad frame is a retryable error frame; a drop is redialled and resubscribed', async () => {
    const client = await Client.open(url);
    const before = subscribes('SUBSCRIPTION_TYPE_TRADE').length;
    client.send({ id: 't', action: 'subscribe', exchange: 'polymarket_us', method: 'watchTrades', args: [`${slug}:short`] });
    await until(() => subscribes('SUBSCRIPTION_TYPE_TRADE').length > before && venue.sockets.size === 1);
    const { requestId } = subscribes('SUBSCRIPTION_TYPE_TRADE').at(-1)!;
    const price = { value: '0.2650', currency: 'USD' };
    const trade = {
      marketSlug: slug,
      price,
      quantity: { value: '10', currency: 'USD' },
      tradeTime: '2026-09-06T00:58:00Z',
      taker: { intent: 'ORDER_INTENT_BUY_LONG' },
    };
    venue.send({ requestId, subscriptionType: 'SUBSCRIPTION_TYPE_TRADE', trade });
    const prints = (await client.next(dataOf('t'))).data as Trade[];
    expect(prints[0]).toMatchObject({ price: 0.735, amount: 10, side: 'sell', outcomeId: `${slug}:short`, timestamp: Date.parse('2026-09-06T00:58:00Z') });

    venue.send({ requestId, subscriptionType: 'SUBSCRIPTION_TYPE_TRADE', trade: { ...trade, price: { value: 'n/a' } } });
    expect((await client.next(errorOf('t'))).error).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', retryable: true });

    const connections = venue.upgrades.length;
    const subscribed = subscribes('SUBSCRIPTION_TYPE_TRADE').length;
    const from = client.frames.length;
    venue.drop();
    expect((await client.next(errorOf('t'), 2_000, from)).error).toMatchObject({ code: 'NETWORK_ERROR', retryable: true });
    await until(() => venue.upgrades.length > connections && subscribes('SUBSCRIPTION_TYPE_TRADE').length > subscribed);
    const again = subscribes('SUBSCRIPTION_TYPE_TRADE').at(-1)!;
    expect(again.marketSlugs).toEqual([slug]);
    const after = client.frames.length;
    venue.send({ requestId: again.requestId, subscriptionType: 'SUBSCRIPTION_TYPE_TRADE', trade: { ...trade, tradeTime: '2026-09-06T00:59:00Z' } });
    expect(((await client.next(dataOf('t'), 2_000, after)).data as Trade[])[0]!.timestamp).toBe(Date.parse('2026-09-06T00:59:00Z'));
    await client.close();
  });
});
