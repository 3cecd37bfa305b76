import { readFileSync } from 'node:fs';
import { createHttpClientFactory, fixedClock } from '@predgate/core';
import type { OrderBook } from '@predgate/core';
import { LocalSocketVenue, collectFeed, replayAgent, until, watchBookAndTrades } from '@predgate/core/testkit';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAdapter } from '../../test/support.js';
import { MarketStream } from './market-stream.js';

/*
 * Polymarket's CLOB market channel replayed on 127.0.0.1: the client sends
 * `{assets_ids, type: 'market'}` on open and `{operation, assets_ids}` after;
 * the venue answers with `book` snapshots, then `price_change` deltas and
 * `last_trade_price` prints, and never says anything about a token it lacks.
 */

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../test/fixtures/streams/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;
const book1 = fixture('ws-book-1.json');
const change1 = fixture('ws-price-change-1.json');
const book2 = fixture('ws-book-2.json');
const change2 = fixture('ws-price-change-2.json');
const token1 = String(book1.asset_id);
const token2 = String(book2.asset_id);
/** Well formed, but no market of the venue has it. */
const unknownToken = '1'.repeat(77);

let venue: LocalSocketVenue;
let stream: MarketStream;
/** What `tokenExists` answers, by token; a token not listed makes the lookup fail. */
let tokens: Map<string, boolean>;
const lookups: string[] = [];

beforeEach(async () => {
  venue = await LocalSocketVenue.start();
  tokens = new Map([
    [token1, true],
    [token2, true],
    [unknownToken, false],
  ]);
  lookups.length = 0;
  stream = new MarketStream({
    url: venue.url,
    pingIntervalMs: 20,
    backoff: { initialMs: 5, maxMs: 10 },
    tokenExists: (tokenId) => {
      lookups.push(tokenId);
      const known = tokens.get(tokenId);
      return known === undefined ? Promise.reject(new Error('gamma unreachable')) : Promise.resolve(known);
    },
  });
});

afterEach(async () => {
  await stream.close();
  await venue.close();
});

const messages = () =>
  venue.frames.filter((frame) => frame !== 'PING').map((frame) => JSON.parse(frame) as { assets_ids?: string[]; operation?: string; type?: string });
const subscribed = () =>
  messages()
    .filter((message) => message.operation !== 'unsubscribe')
    .flatMap((message) => message.assets_ids ?? []);
const unsubscribed = () =>
  messages()
    .filter((message) => message.operation === 'unsubscribe')
    .flatMap((message) => message.assets_ids ?? []);

describe('books', () => {
  test('a snapshot then the recorded delta give full books; the delta moves the best bid to 0.301 as the venue says', async () => {
    const watch = watchBookAndTrades(stream, token1);
    await until(() => subscribed().includes(token1), 'the token subscribed');
    expect(messages()[0]).toMatchObject({ assets_ids: [token1], type: 'market' });
    // The first frame after subscribing is an array of snapshots.
    venue.send([book1]);
    await until(() => watch.books.data.length === 1, 'the first book');
    const first = watch.books.data[0]!;
    expect(first.bids[0]!.price).toBeGreaterThan(first.bids.at(-1)!.price);
    expect(first.asks[0]!.price).toBeLessThan(first.asks.at(-1)!.price);
    expect(first.timestamp).toBe(Number(book1.timestamp));
    expect(first.sourceMetadata).toMatchObject({ source: 'stream' });
    venue.send(change1);
    await until(() => watch.books.data.length === 2, 'the book after the delta');
    const second = watch.books.data[1]!;
    expect(second.bids[0]).toEqual({ price: 0.301, size: 1000 });
    expect(second.asks[0]!.price).toBe(0.397);
    expect(first.bids[0]!.price).toBeLessThan(0.301);
    expect(second.bids.length).toBe(first.bids.length + (first.bids.some((level) => level.price === 0.301) ? 0 : 1));
    expect(second.timestamp).toBe(Number(change1.timestamp));
    expect(watch.books.errors).toEqual([]);
    await watch.stop();
  });

  test('two watchers of a token share one subscription; the newcomer gets the current book at once; the last to leave unsubscribes and closes', async () => {
    const one = collectFeed<OrderBook>();
    const first = stream.watchOrderBook(token2);
    first.start(one.listener);
    await until(() => subscribed().includes(token2), 'the token subscribed');
    venue.send(book2);
    await until(() => one.data.length === 1, 'the first book');
    const two = collectFeed<OrderBook>();
    const second = stream.watchOrderBook(token2);
    second.start(two.listener);
    await until(() => two.data.length === 1, "the newcomer's book");
    expect(two.data[0]).toEqual(one.data[0]);
    expect(subscribed().filter((token) => token === token2)).toHaveLength(1);
    // A removal (size "0") of the market's other token changes nothing here; a delta of this token does.
    venue.send({ ...change2, price_changes: [{ ...(change2.price_changes as object[])[0], asset_id: token2, price: '0.002', size: '7', side: 'BUY' }] });
    await until(() => two.data.length === 2, 'the updated book');
    expect(two.data[1]!.bids.map((level) => level.price)).toEqual([0.004, 0.002, 0.001]);

    await first.stop();
    expect(unsubscribed()).toEqual([]);
    expect(stream.tokens).toEqual([token2]);
    await second.stop();
    expect(stream.tokens).toEqual([]);
    await until(() => venue.sockets.size === 0, 'the connection closed with its last token');
  });

  test('frames in a shape we do not read are retryable errors; the stream goes on', async () => {
    const watch = watchBookAndTrades(stream, token1);
    await until(() => subscribed().includes(token1), 'the token subscribed');
    venue.send([book1]);
    await until(() => watch.books.data.length === 1, 'the first book');
    venue.send('{"event_type": "book", ');
    await until(() => watch.books.errors.length === 1, 'the broken frame reported');
    expect(watch.books.errors[0]).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', retryable: true, message: expect.stringContaining('not JSON') });
    venue.send({ event_type: 'price_change', market: '0x1', timestamp: '1790658674035', changes: [] });
    await until(() => watch.books.errors.length === 2, 'the unknown shape reported');
    expect(watch.books.errors[1]!.message).toContain('price_changes');
    venue.send(change1);
    await until(() => watch.books.data.length === 2, 'the book after the delta');
    expect(watch.books.data[1]!.bids[0]!.price).toBe(0.301);
    await watch.stop();
  });
});

test('the venue gets PING keepalives (prints are in the conformance, test/stream.test.ts)', async () => {
  const watch = watchBookAndTrades(stream, token1);
  await until(() => venue.frames.includes('PING'), 'a keepalive');
  await watch.stop();
});

describe('an outcome the venue does not have', () => {
  test('an id that cannot be a token is refused at once with OUTCOME_NOT_FOUND, and nothing is subscribed or looked up', async () => {
    const watch = watchBookAndTrades(stream, 'not-a-token');
    await until(() => watch.books.errors.length > 0 && watch.prints.errors.length > 0, 'both watches refused');
    for (const { errors } of [watch.books, watch.prints])
      expect(errors.map(({ code, retryable }) => ({ code, retryable }))).toEqual([{ code: 'OUTCOME_NOT_FOUND', retryable: false }]);
    expect(stream.tokens).toEqual([]);
    expect(lookups).toEqual([]);
    await watch.stop();
  });

  test('a token the venue says it lacks ends its book and trade watches with OUTCOME_NOT_FOUND, looked up once', async () => {
    const watch = watchBookAndTrades(stream, unknownToken);
    await until(() => watch.books.errors.length > 0 && watch.prints.errors.length > 0, 'both watches refused');
    for (const { errors } of [watch.books, watch.prints])
      expect(errors.map(({ code, retryable }) => ({ code, retryable }))).toEqual([{ code: 'OUTCOME_NOT_FOUND', retryable: false }]);
    expect(watch.books.errors[0]!.message).toContain(unknownToken);
    expect(lookups).toEqual([unknownToken]);
    await watch.stop();
  });

  test('a token the lookup cannot tell about is streamed as the venue sends it; a known token is looked up once', async () => {
    const unsure = '2'.repeat(77);
    const watch = watchBookAndTrades(stream, unsure);
    await until(() => subscribed().includes(unsure), 'the token subscribed');
    venue.send([{ ...book2, asset_id: unsure }]);
    await until(() => watch.books.data.length === 1, 'the book of the token');
    expect(watch.books.errors).toEqual([]);
    const known = watchBookAndTrades(stream, token1);
    await until(() => subscribed().includes(token1), 'the known token subscribed');
    const again = watchBookAndTrades(stream, token1);
    await again.stop();
    await known.stop();
    await watch.stop();
    expect(lookups.filter((token) => token === token1)).toHaveLength(1);
  });
});

test('the adapter refuses a token Gamma has no market for (GET /markets?clob_token_ids answers [])', async () => {
  const agent = replayAgent([
    {
      title: 'no market holds the token',
      file: 'market-stream.test.ts',
      kind: 'response',
      method: 'watchOrderBook',
      args: [unknownToken],
      exchanges: [
        { request: { method: 'GET', url: `https://gamma-api.polymarket.com/markets?clob_token_ids=${unknownToken}` }, response: { status: 200, body: [] } },
      ],
    },
  ]);
  const adapter = createAdapter(
    { http: createHttpClientFactory({ dispatcher: agent }), clock: fixedClock(Date.UTC(2026, 10, 27)) },
    { ws: venue.url, stream: { pingIntervalMs: 1_000, backoff: { initialMs: 5, maxMs: 10 } } },
  );
  const books = collectFeed<OrderBook>();
  const feed = adapter.watchOrderBook!(unknownToken);
  feed.start(books.listener);
  await until(() => books.errors.length > 0, 'the watch refused');
  expect(books.errors[0]).toMatchObject({ code: 'OUTCOME_NOT_FOUND', retryable: false });
  await feed.stop();
  await adapter.close!();
  await agent.close();
});
