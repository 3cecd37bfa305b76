import { createPublicKey, verify, constants } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { OrderBook, Trade } from '@predgate/core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { testKeyId, testPrivateKey } from '../../adapters/kalshi/test/support/test-key.js';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';
import { Client, FakeVenueSocket, dataOf, errorOf, until, venueStreaming } from './streaming-support.js';

/** Kalshi websocket messages in the documented shapes (see the file's note). */
const payloads = JSON.parse(readFileSync(new URL('./fixtures/streaming/kalshi-ws.json', import.meta.url), 'utf8')) as Record<string, Record<string, unknown>>;
const ticker = 'KXFEDDECISION-26JUN-H0';

interface Command {
  id: number;
  cmd: string;
  params: { channels?: string[]; market_tickers?: string[]; sids?: number[]; action?: string };
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
          id: 'kalshi',
          package: '@predgate/adapter-kalshi',
          version: '^0.1.0',
          config: {
            hosts: { ws: `${venue.url}/trade-api/ws/v2`, wsFallbacks: [] },
            stream: { ...stream, credentials: { apiKey: testKeyId, privateKey: testPrivateKey } },
          },
        },
        {
          id: 'kalshi-demo',
          package: '@predgate/adapter-kalshi',
          version: '^0.1.0',
          config: { hosts: { ws: `${venue.url}/trade-api/ws/v2`, wsFallbacks: [] }, stream },
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

const commands = (cmd?: string) => venue.messages<Command>((message) => typeof message.cmd === 'string' && (cmd === undefined || message.cmd === cmd));
const bookIn = (frame: Record<string, unknown>) => frame.data as OrderBook;
/** Answers the latest subscribe command as the venue does, with a subscription id. */
function acknowledge(sid: number): Command {
  const command = commands('subscribe').at(-1)!;
  venue.send({ id: command.id, type: 'subscribed', msg: { channel: command.params.channels![0], sid } });
  return command;
}

describe('Kalshi websocket replayed on 127.0.0.1, through /ws', () => {
  test('the handshake is signed (RSA-PSS over timestamp + GET + /trade-api/ws/v2); a snapshot and deltas (current and legacy units) give full YES books', async () => {
    const client = await Client.open(url);
    client.send({ id: 'k', action: 'subscribe', exchange: 'kalshi', method: 'watchOrderBook', args: [ticker] });
    await until(() => commands('subscribe').length === 1);
    const upgrade = venue.upgrades.at(-1)!;
    expect(upgrade.url).toBe('/trade-api/ws/v2');
    const timestamp = String(upgrade.headers['kalshi-access-timestamp']);
    expect(upgrade.headers['kalshi-access-key']).toBe(testKeyId);
    const signed = verify(
      'sha256',
      Buffer.from(`${timestamp}GET/trade-api/ws/v2`),
      { key: createPublicKey(testPrivateKey), padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
      Buffer.from(String(upgrade.headers['kalshi-access-signature']), 'base64'),
    );
    expect(signed).toBe(true);
    expect(acknowledge(1).params).toEqual({ channels: ['orderbook_delta'], market_tickers: [ticker] });
    venue.send(payloads.snapshot);
    const first = bookIn(await client.next(dataOf('k')));
    expect(first.bids).toEqual([
      { price: 0.42, size: 13 },
      { price: 0.41, size: 25.5 },
      { price: 0.08, size: 300 },
    ]);
    expect(first.asks).toEqual([
      { price: 0.45, size: 2 },
      { price: 0.46, size: 40 },
    ]);
    expect(first.datetime).toBe(new Date(first.timestamp).toISOString());
    let from = client.frames.length;
    venue.send(payloads.delta);
    const second = bookIn(await client.next(dataOf('k'), 2_000, from));
    expect(second.bids[0]).toEqual({ price: 0.41, size: 25.5 });
    expect(second.timestamp).toBe(Date.parse('2026-05-14T14:05:01Z'));
    from = client.frames.length;
    venue.send(payloads.legacyDelta);
    const third = bookIn(await client.next(dataOf('k'), 2_000, from));
    expect(third.asks[0]).toEqual({ price: 0.44, size: 10 });
    await client.close();
  });

  test('YES and NO share the market’s one subscription; a new ticker is subscribed alone; leaving tickers are taken out, then unsubscribed', async () => {
    const client = await Client.open(url);
    client.send({ id: 'yes', action: 'subscribe', exchange: 'kalshi', method: 'watchOrderBook', args: [ticker] });
    client.send({ id: 'no', action: 'subscribe', exchange: 'kalshi', method: 'watchOrderBook', args: [`${ticker}-NO`] });
    await until(() => commands('subscribe').length >= 2);
    const before = commands('subscribe').length;
    const sub = acknowledge(11);
    expect(sub.params.market_tickers).toEqual([ticker]);
    venue.send({ ...payloads.snapshot, sid: 11 });
    const no = bookIn(await client.next(dataOf('no')));
    expect(no.bids[0]).toEqual({ price: 0.55, size: 2 });
    expect(no.asks[0]).toEqual({ price: 0.58, size: 13 });
    await client.next(dataOf('yes'));

    client.send({ id: 'other', action: 'subscribe', exchange: 'kalshi', method: 'watchOrderBook', args: ['KXOTHER-1'] });
    await until(() => commands('subscribe').length === before + 1);
    expect(acknowledge(12).params.market_tickers).toEqual(['KXOTHER-1']);
    expect(commands('subscribe')).toHaveLength(before + 1);

    client.send({ id: 'no', action: 'unsubscribe' });
    await client.next((frame) => frame.event === 'unsubscribed' && frame.id === 'no');
    expect(commands('unsubscribe').filter((command) => command.params.sids?.includes(11))).toHaveLength(0);
    client.send({ id: 'yes', action: 'unsubscribe' });
    await until(() => commands('unsubscribe').some((command) => command.params.sids?.includes(11)));
    client.send({ id: 'other', action: 'unsubscribe' });
    await until(() => venue.sockets.size === 0);
    await client.close();
  });

  test('a sequence gap resubscribes the ticker for a fresh snapshot, with a retryable error frame meanwhile', async () => {
    const client = await Client.open(url);
    const earlier = commands('subscribe').length;
    client.send({ id: 'g', action: 'subscribe', exchange: 'kalshi', method: 'watchOrderBook', args: [ticker] });
    await until(() => venue.sockets.size === 1 && commands('subscribe').length > earlier);
    const before = commands('subscribe').length;
    acknowledge(21);
    venue.send({ ...payloads.snapshot, sid: 21 });
    await client.next(dataOf('g'));
    venue.send({ ...payloads.delta, sid: 21, seq: 5 });
    expect((await client.next(errorOf('g'))).error).toMatchObject({ code: 'NETWORK_ERROR', retryable: true, message: expect.stringContaining('sequence') });
    await until(() => commands('unsubscribe').some((command) => command.params.sids?.includes(21)) && commands('subscribe').length === before + 1);
    acknowledge(22);
    const from = client.frames.length;
    venue.send({ ...payloads.snapshot, sid: 22 });
    expect(bookIn(await client.next(dataOf('g'), 2_000, from)).bids[0]!.price).toBe(0.42);
    await client.close();
  });

  test('trades: the trade channel’s prints, priced for the outcome watched', async () => {
    const client = await Client.open(url);
    client.send({ id: 'ty', action: 'subscribe', exchange: 'kalshi', method: 'watchTrades', args: [ticker] });
    client.send({ id: 'tn', action: 'subscribe', exchange: 'kalshi', method: 'watchTrades', args: [`${ticker}-NO`] });
    await until(() => commands('subscribe').at(-1)?.params.channels?.[0] === 'trade');
    acknowledge(2);
    venue.send(payloads.trade);
    const yes = (await client.next(dataOf('ty'))).data as Trade[];
    const no = (await client.next(dataOf('tn'))).data as Trade[];
    expect(yes).toEqual([{ id: 'd91bc706-ee49-470d-82d8-11418bda6fed', timestamp: 1778767501000, price: 0.36, amount: 136, side: 'sell', outcomeId: ticker }]);
    expect(no[0]).toMatchObject({ price: 0.64, side: 'buy', outcomeId: `${ticker}-NO` });
    await client.close();
  });

  test('an unknown ticker is an OUTCOME_NOT_FOUND error frame and its watch ends; a dropped connection is redialled and resubscribed', async () => {
    const client = await Client.open(url);
    client.send({ id: 'bad', action: 'subscribe', exchange: 'kalshi', method: 'watchOrderBook', args: ['KXNOPE-1'] });
    await until(() => commands('subscribe').length > 0 && commands('subscribe').at(-1)!.params.market_tickers![0] === 'KXNOPE-1');
    venue.send({ ...payloads.unknownMarket, id: commands('subscribe').at(-1)!.id });
    expect((await client.next(errorOf('bad'))).error).toMatchObject({ code: 'OUTCOME_NOT_FOUND', retryable: false });

    client.send({ id: 'r', action: 'subscribe', exchange: 'kalshi', method: 'watchOrderBook', args: [ticker] });
    await until(() => commands('subscribe').at(-1)!.params.market_tickers![0] === ticker && venue.sockets.size === 1);
    acknowledge(31);
    venue.send({ ...payloads.snapshot, sid: 31 });
    await client.next(dataOf('r'));
    const connections = venue.upgrades.length;
    const before = commands('subscribe').length;
    venue.drop();
    expect((await client.next(errorOf('r'))).error).toMatchObject({ code: 'NETWORK_ERROR', retryable: true });
    await until(() => venue.upgrades.length > connections && commands('subscribe').length > before);
    expect(commands('subscribe').at(-1)!.params.market_tickers).toEqual([ticker]);
    acknowledge(32);
    const from = client.frames.length;
    venue.send({ ...payloads.snapshot, sid: 32 });
    await client.next(dataOf('r'), 2_000, from);
    await client.close();
  });

  test('over HTTP, watchOrderBook answers with the next book from the same socket; a legacy snapshot in cents reads the same', async () => {
    const earlier = commands('subscribe').length;
    const pending = app.call({ method: 'POST', url: '/api/kalshi/watchOrderBook', payload: { args: [`${ticker}-NO`, 1] } });
    await until(() => venue.sockets.size === 1 && commands('subscribe').length > earlier);
    acknowledge(41);
    venue.send({
      type: 'orderbook_snapshot',
      sid: 41,
      seq: 1,
      msg: {
        market_ticker: ticker,
        yes: [[42, 13]],
        no: [
          [55, 2],
          [54, 40],
        ],
      },
    });
    const response = await pending;
    expect(response.statusCode).toBe(200);
    expect((response.result as { data: OrderBook }).data).toMatchObject({ bids: [{ price: 0.55, size: 2 }], asks: [{ price: 0.58, size: 13 }] });
    const stopped = await app.call({ method: 'POST', url: '/api/kalshi/unwatchOrderBook', payload: { args: [`${ticker}-NO`] } });
    expect(stopped.result).toEqual({ success: true, data: true });
  });

  test('without any API key for the handshake, the subscription gets AUTHENTICATION_ERROR at once and no connection is made', async () => {
    const client = await Client.open(url);
    const connections = venue.upgrades.length;
    client.send({ id: 'anon', action: 'subscribe', exchange: 'kalshi-demo', method: 'watchOrderBook', args: [ticker] });
    const frame = await client.next(errorOf('anon'));
    expect(frame.error).toMatchObject({ code: 'AUTHENTICATION_ERROR', retryable: false });
    expect(JSON.stringify(frame)).not.toContain('PRIVATE');
    expect(venue.upgrades.length).toBe(connections);
    await client.close();
  });
});
