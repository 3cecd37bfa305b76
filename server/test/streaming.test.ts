import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { OrderBook } from '@predgate/core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { Client, activeOutcomes, dataOf as data, errorOf, until as waitUntil } from './streaming-support.js';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

/** Waits for a condition, naming the open upstreams when it is not met. */
const until = (condition: () => boolean, ms = 2_000) => waitUntil(condition, ms, `upstreams ${app.streams.hub.keys.join(', ')}:`);

let app: TestApp;
let url: string;
let outcomes: string[];
beforeAll(async () => {
  app = await testApp({
    config: {
      port: 0,
      host: '127.0.0.1',
      streaming: {
        dataTimeoutMs: 30_000,
        heartbeatMs: 100,
        maxFrameBytes: 1_024,
        maxMessageBytes: 64 * 1024,
        maxSymbols: 50,
        maxWatchesPerKey: 80,
        highWaterBytes: 1024 * 1024,
        maxQueuedFrames: 100,
        slowConsumerMs: 1_000,
        httpWaitMs: 500,
        httpIdleMs: 300,
      },
    },
    manifest: { venues: [{ id: 'mock', package: '@predgate/adapter-mock', version: '^0.1.0', config: { events: 50, tickMs: 20 } }] },
  });
  await app.server.start();
  url = `${app.server.info.uri.replace('http', 'ws')}/ws?apiKey=${apiKey}`;
  outcomes = await activeOutcomes(app);
});
afterAll(() => app.stop());
// Every test leaves no venue subscription behind: closing its sockets releases them.
afterEach(() => until(() => app.streams.hub.size === 0 && app.streams.http.size === 0));

describe('/ws handshake', () => {
  test('refuses an upgrade without an API key, or with a wrong one, with 401 and the error envelope', async () => {
    for (const target of [url.replace(/\?.*$/, ''), url.replace(apiKey, 'not-a-key-0123456789')]) {
      const ws = new WebSocket(target);
      ws.on('error', () => undefined);
      const [, response] = (await once(ws, 'unexpected-response')) as [unknown, IncomingMessage];
      expect(response.statusCode).toBe(401);
      const chunks: Buffer[] = [];
      for await (const chunk of response) chunks.push(chunk as Buffer);
      expect(JSON.parse(Buffer.concat(chunks).toString())).toMatchObject({ success: false, error: { code: 'INVALID_API_KEY' } });
      ws.terminate();
    }
  });

  test('accepts the key as a Bearer header, and a plain GET /ws is told to upgrade (426)', async () => {
    const client = await Client.open(url.replace(/\?.*$/, ''), { headers: { authorization: `Bearer ${apiKey}` } });
    await client.close();
    const plain = await app.call({ url: '/ws' });
    expect(plain.statusCode).toBe(426);
  });

  test('the API key in the query never reaches a log line', async () => {
    const client = await Client.open(url);
    client.send({ id: 'log', action: 'subscribe', exchange: 'mock', method: 'watchOrderBook', args: [outcomes[0]] });
    await client.next(data('log'));
    await client.close();
    await app.call({ url: `/ws?apiKey=${apiKey}` });
    expect(app.logs.join('\n')).not.toContain(apiKey);
  });
});

describe('/ws subscriptions against the mock venue', () => {
  test('subscribe answers "subscribed", then full books with timestamp and datetime, one frame per update', async () => {
    const client = await Client.open(url);
    client.send({ id: 'a', action: 'subscribe', exchange: 'mock', method: 'watchOrderBook', args: [outcomes[0], 3] });
    await client.next((frame) => frame.event === 'subscribed' && frame.id === 'a');
    await until(() => client.count(data('a')) >= 3);
    const frame = await client.next(data('a'));
    expect(frame).toMatchObject({ method: 'watchOrderBook', symbol: outcomes[0] });
    const book = frame.data as OrderBook;
    expect(book.bids.length).toBeLessThanOrEqual(3);
    expect(book.asks.length).toBeGreaterThan(0);
    expect(typeof book.timestamp).toBe('number');
    expect(book.datetime).toBe(new Date(book.timestamp).toISOString());
    await client.close();
  });

  test('one upstream per symbol, shared by every client; unsubscribe by id and closing the socket release it', async () => {
    const before = 0;
    const one = await Client.open(url);
    const two = await Client.open(url);
    one.send({ id: 'x', action: 'subscribe', exchange: 'mock', method: 'watchOrderBook', args: [outcomes[1]] });
    one.send({ id: 'w', action: 'subscribe', exchange: 'mock', method: 'watchOrderBook', args: [outcomes[1], 2] });
    two.send({ id: 'y', action: 'subscribe', exchange: 'mock', method: 'watchOrderBook', args: [outcomes[1]] });
    two.send({ id: 'z', action: 'subscribe', exchange: 'mock', method: 'watchOrderBook', args: [outcomes[1], 1] });
    await Promise.all([one.next(data('x')), one.next(data('w')), two.next(data('y')), two.next(data('z'))]);
    expect(app.streams.hub.size).toBe(before + 1);

    one.send({ id: 'x', action: 'unsubscribe' });
    await one.next((frame) => frame.event === 'unsubscribed' && frame.id === 'x');
    const seen = one.count(data('x'));
    // Two more updates of the same upstream reach 'w' (the same book at another depth) on this socket; none reaches 'x'.
    const updates = one.count(data('w'));
    await until(() => one.count(data('w')) >= updates + 2);
    expect(one.count(data('x'))).toBe(seen);
    expect(app.streams.hub.size).toBe(before + 1);

    // The same id again is a fresh subscription.
    one.send({ id: 'x', action: 'subscribe', exchange: 'mock', method: 'watchOrderBook', args: [outcomes[1]] });
    const from = one.frames.length;
    await one.next(data('x'), 2_000, from);

    await two.close();
    expect(app.streams.hub.size).toBe(before + 1);
    await one.close();
    await until(() => app.streams.hub.size === before);
  });

  test('watchOrderBooks sends one data frame per symbol, each symbol its own shared upstream', async () => {
    const client = await Client.open(url);
    const symbols = outcomes.slice(0, 3);
    client.send({ id: 'batch', action: 'subscribe', exchange: 'mock', method: 'watchOrderBooks', args: [symbols] });
    await until(() => symbols.every((symbol) => client.frames.some((frame) => frame.id === 'batch' && frame.symbol === symbol)));
    expect(app.streams.hub.keys.filter((key) => key.includes('watchOrderBook ')).length).toBeGreaterThanOrEqual(3);
    await client.close();
    await until(() => app.streams.hub.size === 0);
  });

  test('watchTrades streams batches of prints', async () => {
    const client = await Client.open(url);
    client.send({ id: 't', action: 'subscribe', exchange: 'mock', method: 'watchTrades', args: [outcomes[0]] });
    const frame = await client.next(data('t'));
    expect(frame.data).toEqual([expect.objectContaining({ outcomeId: outcomes[0], price: expect.any(Number) })]);
    await client.close();
  });

  test('a bad id is an error frame with the code, not a hang, and leaves no upstream', async () => {
    const client = await Client.open(url);
    client.send({ id: 'bad', action: 'subscribe', exchange: 'mock', method: 'watchOrderBook', args: ['no-such-outcome'] });
    const frame = await client.next(errorOf('bad'));
    expect(frame.error).toEqual({ code: 'OUTCOME_NOT_FOUND', message: expect.stringContaining('no-such-outcome'), retryable: false });
    await until(() => app.streams.hub.size === 0);
    await client.close();
  });
});

describe('/ws bad frames: a clear error frame, and the socket stays usable', () => {
  test('malformed JSON, unknown actions, unknown venues and methods, bad arguments, non-streaming methods', async () => {
    const client = await Client.open(url);
    client.send('{"id": "a", ');
    expect((await client.next(errorOf(null))).error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('not JSON') });
    client.send({ id: 'u', action: 'explode' });
    expect((await client.next(errorOf('u'))).error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('Unknown action') });
    client.send({ id: 'v', action: 'subscribe', exchange: 'nowhere', method: 'watchOrderBook', args: ['1'] });
    expect((await client.next(errorOf('v'))).error).toMatchObject({ code: 'NOT_FOUND' });
    // pmxtjs probes the socket with a `_ping` method and expects an error frame back.
    client.send({ id: 'p', action: 'subscribe', exchange: 'mock', method: '_ping', args: [] });
    expect((await client.next(errorOf('p'))).error).toMatchObject({ code: 'NOT_FOUND' });
    client.send({ id: 'w', action: 'subscribe', exchange: 'mock', method: 'watchOrderBook', args: [] });
    expect((await client.next(errorOf('w'))).error).toMatchObject({ code: 'VALIDATION_ERROR' });
    client.send({ id: 'f', action: 'subscribe', exchange: 'mock', method: 'fetchOrderBook', args: [outcomes[0]] });
    expect((await client.next(errorOf('f'))).error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('not a streaming method') });
    client.send({ id: 'n', action: 'unsubscribe' });
    expect((await client.next(errorOf('n'))).error).toMatchObject({ code: 'NOT_FOUND' });
    client.send(`{"id": "d", "action": "subscribe", "exchange": "mock", "method": "watchOrderBook", "args": ${'['.repeat(64)}${']'.repeat(64)}}`);
    expect((await client.next(errorOf('d'))).error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('deeper than 64') });
    client.send(['not', 'an', 'object']);
    expect((await client.next(errorOf(null), 2_000, client.frames.length - 1)).error).toMatchObject({ code: 'VALIDATION_ERROR' });
    client.send({ id: 'ok', action: 'subscribe', exchange: 'mock', method: 'watchOrderBook', args: [outcomes[0]] });
    await client.next(data('ok'));
    await client.close();
  });

  test('a frame over the frame limit gets an error frame; one over the message limit closes the socket with 1009', async () => {
    const client = await Client.open(url);
    client.send({ id: 'big', action: 'subscribe', exchange: 'mock', method: 'watchOrderBook', args: ['x'.repeat(2_000)] });
    expect((await client.next(errorOf(null))).error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('1024 bytes') });
    client.send({ id: 'ok', action: 'subscribe', exchange: 'mock', method: 'watchOrderBook', args: [outcomes[0]] });
    await client.next(data('ok'));
    const closed = once(client.ws, 'close');
    client.send('x'.repeat(100 * 1024));
    const [code] = (await closed) as [number];
    expect(code).toBe(1009);
    await until(() => app.streams.hub.size === 0);
  });

  test('heartbeats: a client that stops answering pings is dropped, and its upstream with it', async () => {
    const client = await Client.open(url, { autoPong: false });
    client.send({ id: 'h', action: 'subscribe', exchange: 'mock', method: 'watchOrderBook', args: [outcomes[2]] });
    await client.next(data('h'));
    await once(client.ws, 'close');
    await until(() => app.streams.hub.size === 0);
  });
});

describe('HTTP fallback for clients without a socket', () => {
  const post = (method: string, args: unknown[]) => app.call({ method: 'POST', url: `/api/mock/${method}`, payload: { args } });

  test('watchOrderBook answers with the next book on the shared upstream; unwatchOrderBook ends the watch', async () => {
    const first = await post('watchOrderBook', [outcomes[0], 2]);
    expect(first.statusCode).toBe(200);
    const book = (first.result as { data: OrderBook }).data;
    expect(book.bids.length).toBeLessThanOrEqual(2);
    expect(app.streams.hub.size).toBe(1);
    const second = await post('watchOrderBook', [outcomes[0], 2]);
    expect((second.result as { data: OrderBook }).data).not.toEqual(book);
    const stopped = await post('unwatchOrderBook', [outcomes[0]]);
    expect(stopped.result).toEqual({ success: true, data: true });
    await until(() => app.streams.hub.size === 0);
    expect((await post('unwatchOrderBook', [outcomes[0]])).result).toEqual({ success: true, data: false });
  });

  test('watchOrderBooks answers books keyed by outcome; watchTrades answers prints; unused watches expire', async () => {
    const books = await post('watchOrderBooks', [outcomes.slice(0, 2)]);
    expect(Object.keys((books.result as { data: Record<string, OrderBook> }).data).every((key) => outcomes.includes(key))).toBe(true);
    const trades = await post('watchTrades', [outcomes[0]]);
    expect((trades.result as { data: unknown[] }).data.length).toBeGreaterThan(0);
    expect(app.streams.hub.size).toBeGreaterThan(0);
    await until(() => app.streams.hub.size === 0 && app.streams.http.size === 0, 2_000);
  });

  test('a bad id answers with the error envelope', async () => {
    const response = await post('watchOrderBook', ['no-such-outcome']);
    expect(response.statusCode).toBe(404);
    expect(response.result).toMatchObject({ success: false, error: { code: 'OUTCOME_NOT_FOUND' } });
  });

  test('a streaming method is POST only', async () => {
    const response = await app.call({ url: `/api/mock/watchOrderBook?outcomeId=${outcomes[0]}` });
    expect(response.statusCode).toBe(405);
  });
});

describe('the streaming methods in describe and /openapi.json', () => {
  test('describe lists them for the mock venue; the document has their HTTP fallbacks and /ws with its frames', async () => {
    const described = (await app.call({ url: '/api/mock/describe' })).result as { data: { has: Record<string, unknown> } };
    expect(described.data.has).toMatchObject({
      watchOrderBook: true,
      watchOrderBooks: 'emulated',
      watchTrades: true,
      unwatchOrderBook: true,
      unwatchTrades: true,
    });
    const document = JSON.parse((await app.server.inject({ url: '/openapi.json' })).payload) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(document.paths['/api/{exchange}/watchOrderBook']?.post?.tags).toEqual(['Streaming']);
    expect(document.paths['/api/{exchange}/watchOrderBook']?.get).toBeUndefined();
    const socket = document.paths['/ws']!.get!;
    expect(socket.responses).toHaveProperty('401');
    expect((socket['x-streaming-methods'] as Array<{ method: string; exchanges: string[] }>).map(({ method, exchanges }) => [method, exchanges])).toEqual([
      ['watchOrderBook', ['mock']],
      ['watchOrderBooks', ['mock']],
      ['watchTrades', ['mock']],
    ]);
  });
});

describe('slow consumers on a real socket', () => {
  test('a client that stops reading is dropped (books coalesced, then disconnected), and its upstreams are released', async () => {
    const slow = await testApp({
      config: {
        port: 0,
        host: '127.0.0.1',
        streaming: {
          dataTimeoutMs: 30_000,
          heartbeatMs: 30_000,
          maxFrameBytes: 64 * 1024,
          maxMessageBytes: 1024 * 1024,
          maxSymbols: 500,
          maxWatchesPerKey: 2_000,
          highWaterBytes: 64 * 1024,
          maxQueuedFrames: 1_000,
          slowConsumerMs: 300,
          httpWaitMs: 1_000,
          httpIdleMs: 1_000,
        },
      },
      manifest: { venues: [{ id: 'mock', package: '@predgate/adapter-mock', version: '^0.1.0', config: { events: 200, tickMs: 5 } }] },
    });
    try {
      await slow.server.start();
      const listed = (await slow.call({ url: '/api/mock/fetchMarkets?limit=200&status=active' })).result as {
        data: Array<{ outcomes: Array<{ outcomeId: string }> }>;
      };
      const symbols = listed.data.flatMap((market) => market.outcomes.map((outcome) => outcome.outcomeId)).slice(0, 100);
      const client = await Client.open(`${slow.server.info.uri.replace('http', 'ws')}/ws?apiKey=${apiKey}`);
      client.send({ id: 'all', action: 'subscribe', exchange: 'mock', method: 'watchOrderBooks', args: [symbols] });
      await client.next(data('all'));
      // Stop reading: the kernel buffers fill, then the gateway's outbox.
      (client.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      await waitUntil(() => slow.streams.hub.size === 0, 5_000, 'upstreams released');
      const metrics = (await slow.call({ url: '/metrics' })).payload;
      expect(metrics).toMatch(/predgate_stream_slow_consumers_total 1/);
      client.ws.terminate();
    } finally {
      await slow.stop();
    }
  });
});
