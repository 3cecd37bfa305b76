import { once } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';
import { Client, activeOutcomes, dataOf, errorOf, until as waitUntil, venueStreaming } from './streaming-support.js';

/**
 * How watches end, as pmxt clients end them: `close`, unwatch over HTTP,
 * unsubscribe; how they are refused (an unknown outcome, the per-key cap);
 * and `watchOrderBooks` answering every book and never piling up.
 */

const until = (condition: () => boolean, ms = 2_000) => waitUntil(condition, ms, `upstreams ${app.streams.hub.keys.join(', ')}:`);
const post = (method: string, args: unknown[]) => app.call({ method: 'POST', url: `/api/mock/${method}`, payload: { args } });

let app: TestApp;
let url: string;
let outcomes: string[];
beforeAll(async () => {
  app = await testApp({
    config: { port: 0, host: '127.0.0.1', streaming: { ...venueStreaming(30_000), maxWatchesPerKey: 4 } },
    manifest: { venues: [{ id: 'mock', package: '@predgate/adapter-mock', version: '^0.1.0', config: { events: 20, tickMs: 10 } }] },
  });
  await app.server.start();
  url = `${app.server.info.uri.replace('http', 'ws')}/ws?apiKey=${apiKey}`;
  outcomes = await activeOutcomes(app);
});
afterAll(() => app.stop());
afterEach(() => until(() => app.streams.hub.size === 0 && app.streams.http.size === 0 && app.streams.keyWatches.heldBy('env-1') === 0));

const subscribe = (client: Client, id: string, method: string, args: unknown[]) => client.send({ id, action: 'subscribe', exchange: 'mock', method, args });

describe('close, as pmxt clients send it on shutdown', () => {
  test("ends the caller's subscriptions to the venue and its HTTP watches, closes its socket, and answers what it ended", async () => {
    const client = await Client.open(url);
    subscribe(client, 'a', 'watchOrderBook', [outcomes[0]]);
    await client.next(dataOf('a'));
    expect((await post('watchOrderBook', [outcomes[1]])).statusCode).toBe(200);
    const closed = once(client.ws, 'close');
    const answer = await post('close', []);
    expect(answer.statusCode).toBe(200);
    expect(answer.result).toEqual({ success: true, data: { watches: 1, subscriptions: 1, sockets: 1 } });
    const [code] = (await closed) as [number];
    expect(code).toBe(1000);
    expect(app.streams.clients).toBe(0);
    // With nothing left to end, close still succeeds.
    expect((await post('close', [])).result).toEqual({ success: true, data: { watches: 0, subscriptions: 0, sockets: 0 } });
  });
});

describe('ending a watch stops its frames at once', () => {
  test('after "unsubscribed" no data frame of the id arrives', async () => {
    const client = await Client.open(url);
    subscribe(client, 'u', 'watchOrderBook', [outcomes[0]]);
    await client.next(dataOf('u'));
    client.send({ id: 'u', action: 'unsubscribe' });
    await client.next((frame) => frame.event === 'unsubscribed' && frame.id === 'u');
    const after = client.frames.length;
    // Another subscription keeps ticking; by its tenth frame the ended one would have sent some too.
    subscribe(client, 'v', 'watchOrderBook', [outcomes[1]]);
    await until(() => client.count(dataOf('v')) >= 10);
    expect(client.frames.slice(after).filter(dataOf('u'))).toEqual([]);
    await client.close();
  });

  test("unwatchOrderBook over HTTP ends the symbol's subscription on the caller's socket, which closes when none is left", async () => {
    const client = await Client.open(url);
    subscribe(client, 'w', 'watchOrderBook', [outcomes[2]]);
    await client.next(dataOf('w'));
    const closed = once(client.ws, 'close');
    expect((await post('unwatchOrderBook', [outcomes[2]])).result).toEqual({ success: true, data: true });
    await closed;
    expect(client.frames.some((frame) => frame.event === 'unsubscribed' && frame.id === 'w')).toBe(true);
  });
});

describe('refusals', () => {
  test('an unknown outcome is refused at subscribe with OUTCOME_NOT_FOUND, not retryable, and never acknowledged', async () => {
    const client = await Client.open(url);
    subscribe(client, 'nope', 'watchOrderBook', ['mock-no-such-outcome']);
    const refused = await client.next(errorOf('nope'));
    expect(refused.error).toMatchObject({ code: 'OUTCOME_NOT_FOUND', retryable: false });
    // The socket goes on serving: a good subscription after it is acknowledged.
    subscribe(client, 'yes', 'watchTrades', [outcomes[0]]);
    await client.next((frame) => frame.event === 'subscribed' && frame.id === 'yes');
    expect(client.frames.some((frame) => frame.event === 'subscribed' && frame.id === 'nope')).toBe(false);
    await client.close();
  });

  test('one API key watches at most maxWatchesPerKey symbols over all its sockets and HTTP watches', async () => {
    const client = await Client.open(url);
    subscribe(client, 'three', 'watchOrderBooks', [outcomes.slice(0, 3)]);
    await client.next(dataOf('three'));
    expect((await post('watchOrderBook', [outcomes[3]])).statusCode).toBe(200);
    const overHttp = await post('watchOrderBook', [outcomes[4]]);
    expect(overHttp.statusCode).toBe(429);
    expect(overHttp.result).toMatchObject({ error: { code: 'RATE_LIMIT_EXCEEDED', retryable: false, detail: { maxWatchesPerKey: 4, held: 4 } } });
    subscribe(client, 'more', 'watchOrderBook', [outcomes[4]]);
    expect((await client.next(errorOf('more'))).error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    expect((await post('close', [])).result).toMatchObject({ data: { watches: 1, subscriptions: 1 } });
  });

  test('/ws answers at the path spellings clients produce', async () => {
    const base = app.server.info.uri.replace('http', 'ws');
    for (const path of ['//ws', '/ws/', '///ws']) {
      const client = await Client.open(`${base}${path}?apiKey=${apiKey}`);
      await client.close();
    }
    const wrong = new WebSocket(`${base}/wss?apiKey=${apiKey}`);
    wrong.on('error', () => undefined);
    const [, response] = (await once(wrong, 'unexpected-response')) as [unknown, { statusCode: number }];
    expect(response.statusCode).toBe(404);
    wrong.terminate();
  });
});

describe('watchOrderBooks', () => {
  test('on /ws the first data frames carry every book, and repeating the subscription replaces it', async () => {
    const client = await Client.open(url);
    const symbols = outcomes.slice(0, 3);
    subscribe(client, 'b1', 'watchOrderBooks', [symbols]);
    await until(() => client.count(dataOf('b1')) >= 3);
    expect(
      new Set(
        client.frames
          .filter(dataOf('b1'))
          .slice(0, 3)
          .map((frame) => frame.symbol),
      ),
    ).toEqual(new Set(symbols));
    // pmxt clients subscribe again at every call: the newer subscription takes the older one's place.
    subscribe(client, 'b2', 'watchOrderBooks', [symbols]);
    await client.next((frame) => frame.event === 'unsubscribed' && frame.id === 'b1');
    await until(() => client.count(dataOf('b2')) >= 3);
    expect(app.streams.keyWatches.heldBy('env-1')).toBe(3);
    await client.close();
  });

  test('over HTTP it answers once every outcome has a book', async () => {
    const symbols = outcomes.slice(0, 3);
    const answer = await post('watchOrderBooks', [symbols]);
    expect(Object.keys((answer.result as { data: object }).data).sort()).toEqual([...symbols].sort());
    await post('close', []);
  });
});
