import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OrderBook, Trade } from '@predgate/core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';
import { Client, FakeVenueSocket, dataOf, errorOf, until, venueStreaming } from './streaming-support.js';

/** Opinion's recorded market 2764 (detail and YES book) serve the REST look-ups; its websocket is replayed. */
const payloads = new URL('../../adapters/opinion/test/fixtures/payloads/', import.meta.url);
const detail = JSON.parse(readFileSync(new URL('market-detail-binary.json', payloads), 'utf8')) as { result: { data: Record<string, unknown> } };
const recordedBook = JSON.parse(readFileSync(new URL('orderbook.json', payloads), 'utf8')) as { result: Record<string, unknown> };
const marketId = '2764';
const yes = String(detail.result.data.yesTokenId);
const no = String(detail.result.data.noTokenId);

interface Command {
  action: string;
  channel?: string;
  marketId?: number;
}

let venue: FakeVenueSocket;
let rest: Server;
let bookReads: string[] = [];
let app: TestApp;
let url: string;
beforeAll(async () => {
  venue = await FakeVenueSocket.start();
  rest = createServer((request, response) => {
    const target = new URL(request.url ?? '/', 'http://localhost');
    const send = (body: unknown) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(body));
    };
    if (target.pathname === `/openapi/market/${marketId}`) return send(detail);
    if (target.pathname === '/openapi/market') return send({ errno: 0, errmsg: '', result: { total: 1, list: [detail.result.data] } });
    if (target.pathname === '/openapi/token/latest-price') {
      return send({ errno: 0, errmsg: '', result: { tokenId: target.searchParams.get('token_id'), price: '0.57', side: 'BUY', timestamp: 1795316400000 } });
    }
    if (target.pathname === '/openapi/token/orderbook') {
      const token = target.searchParams.get('token_id') ?? '';
      bookReads.push(token);
      return send({ errno: 0, errmsg: '', result: { ...recordedBook.result, tokenId: token } });
    }
    response.statusCode = 404;
    response.end('{}');
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
          id: 'opinion',
          package: '@predgate/adapter-opinion',
          version: '^0.1.0',
          config: {
            apiKey: 'operator-read-key',
            baseUrl: `http://127.0.0.1:${(rest.address() as AddressInfo).port}/openapi`,
            wsUrl: venue.url,
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
afterEach(async () => {
  await until(() => app.streams.hub.size === 0 && venue.sockets.size === 0, 2_000, 'no upstream and no venue connection left');
  bookReads = [];
});

const commands = (action?: string) =>
  venue.messages<Command>((message) => typeof message.action === 'string' && (action === undefined || message.action === action));
const bookIn = (frame: Record<string, unknown>) => frame.data as OrderBook;

describe('Opinion websocket replayed on 127.0.0.1, through /ws', () => {
  test('the operator key opens the connection; the market is subscribed once; the REST book plus depth diffs give full books; YES and NO share the market', async () => {
    const client = await Client.open(url);
    client.send({ id: 'y', action: 'subscribe', exchange: 'opinion', method: 'watchOrderBook', args: [yes] });
    client.send({ id: 'n', action: 'subscribe', exchange: 'opinion', method: 'watchOrderBook', args: [no] });
    const first = bookIn(await client.next(dataOf('y')));
    expect(new URL(venue.upgrades.at(-1)!.url!, 'ws://localhost').searchParams.get('apikey')).toBe('operator-read-key');
    expect(commands('SUBSCRIBE')).toEqual([{ action: 'SUBSCRIBE', channel: 'market.depth.diff', marketId: 2764 }]);
    expect(first.bids[0]).toEqual({ price: 0.57, size: 1840.25 });
    await client.next(dataOf('n'));
    expect(bookReads.sort()).toEqual([yes, no].sort());

    const from = client.frames.length;
    venue.send({ marketId: 2764, tokenId: yes, outcomeSide: 1, side: 'bids', price: '0.58', size: '10', msgType: 'market.depth.diff' });
    const second = bookIn(await client.next(dataOf('y'), 2_000, from));
    expect(second.bids.slice(0, 2)).toEqual([
      { price: 0.58, size: 10 },
      { price: 0.57, size: 1840.25 },
    ]);
    // The NO book did not move.
    expect(client.frames.slice(from).filter(dataOf('n'))).toHaveLength(0);
    await client.close();
  });

  test('trades by market id: the last-trade channel’s prints of its YES token', async () => {
    const client = await Client.open(url);
    client.send({ id: 't', action: 'subscribe', exchange: 'opinion', method: 'watchTrades', args: [marketId] });
    await until(() => commands('SUBSCRIBE').some((command) => command.channel === 'market.last.trade') && venue.sockets.size === 1);
    venue.send({ marketId: 2764, tokenId: yes, side: 'Sell', outcomeSide: 1, price: '0.57', shares: '12', amount: '6.84', msgType: 'market.last.trade' });
    const trades = (await client.next(dataOf('t'))).data as Trade[];
    expect(trades).toEqual([{ id: expect.any(String), timestamp: expect.any(Number), price: 0.57, amount: 12, side: 'sell', outcomeId: yes }]);
    await client.close();
  });

  test('a dropped connection is redialled, resubscribed and the book read again; an unreadable diff is an error frame', async () => {
    const client = await Client.open(url);
    const before = commands('SUBSCRIBE').length;
    client.send({ id: 'r', action: 'subscribe', exchange: 'opinion', method: 'watchOrderBook', args: [yes] });
    await client.next(dataOf('r'));
    const connections = venue.upgrades.length;
    venue.drop();
    expect((await client.next(errorOf('r'))).error).toMatchObject({ code: 'NETWORK_ERROR', retryable: true });
    await until(() => venue.upgrades.length > connections && commands('SUBSCRIBE').length === before + 2 && bookReads.length === 2);

    let from = client.frames.length;
    venue.send({ marketId: 2764, tokenId: yes, side: 'bids', price: '0.58', size: 'lots', msgType: 'market.depth.diff' });
    expect((await client.next(errorOf('r'), 2_000, from)).error).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', retryable: true });
    await until(() => bookReads.length === 3);
    from = client.frames.length;
    venue.send({ marketId: 2764, tokenId: yes, side: 'asks', price: '0.6', size: '0', msgType: 'market.depth.diff' });
    const book = bookIn(await client.next(dataOf('r'), 2_000, from));
    expect(book.bids[0]).toEqual({ price: 0.57, size: 1840.25 });
    await client.close();
  });
});
