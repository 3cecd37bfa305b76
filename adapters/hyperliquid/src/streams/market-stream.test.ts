import type { LocalSocketVenue } from '@predgate/core/testkit';
import { until, watchBookAndTrades } from '@predgate/core/testkit';
import type { OrderBook, PredgateError, Trade } from '@predgate/core';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { localHyperliquidStream, localHyperliquidVenue } from '../../test/support/local-stream.js';
import type { HyperliquidStream } from './market-stream.js';

/*
 * Hyperliquid's public websocket replayed on 127.0.0.1, in the documented
 * shapes: `{"method":"subscribe","subscription":{"type":"l2Book","coin":"#1730"}}`
 * is acknowledged with a `subscriptionResponse`; `l2Book` messages carry the
 * whole book (`levels: [bids, asks]`, best first, `{px, sz, n}`), `trades`
 * messages a list of `{coin, side, px, sz, time, hash, tid, users}`.
 */

/** Outcome 173, side 0: asset id 100001730, coin `#1730`. */
const yes = '100001730';
const no = '100001731';

interface Sent {
  method: string;
  subscription?: { type: string; coin: string };
}

let venue: LocalSocketVenue;
let stream: HyperliquidStream;

beforeEach(async () => {
  venue = await localHyperliquidVenue();
  stream = localHyperliquidStream(venue);
});

afterEach(async () => {
  await stream.close();
  await venue.close();
});

/** The messages clients sent, in order. */
const received = () => venue.frames.map((frame) => JSON.parse(frame) as Sent);
const subscribes = (type?: string) =>
  received().filter((message) => message.method === 'subscribe' && (type === undefined || message.subscription?.type === type));
const unsubscribes = () => received().filter((message) => message.method === 'unsubscribe');

function l2(coin: string, time: number, bids: Array<[string, string]>, asks: Array<[string, string]>) {
  const level = ([px, sz]: [string, string]) => ({ px, sz, n: 1 });
  return { channel: 'l2Book', data: { coin, time, levels: [bids.map(level), asks.map(level)] } };
}

function collect<T>() {
  const data: T[] = [];
  const errors: PredgateError[] = [];
  return { data, errors, listener: { data: (payload: T) => data.push(payload), error: (error: PredgateError) => errors.push(error) } };
}

test('subscribes l2Book for the side coin; each message is the whole book, with the venue time', async () => {
  const seen = collect<OrderBook>();
  const feed = stream.watchOrderBook(yes);
  feed.start(seen.listener);
  await until(() => subscribes('l2Book').length === 1, 'subscribe');
  expect(subscribes('l2Book')[0]).toEqual({ method: 'subscribe', subscription: { type: 'l2Book', coin: '#1730' } });

  venue.send(
    l2(
      '#1730',
      1_783_600_000_000,
      [
        ['0.62', '100'],
        ['0.61', '50'],
      ],
      [['0.64', '75']],
    ),
  );
  venue.send(l2('#1730', 1_783_600_001_000, [['0.63', '10']], [['0.64', '70']]));
  // Another coin's book on the same connection reaches nobody here.
  venue.send(l2('#1731', 1_783_600_001_500, [['0.3', '1']], []));
  await until(() => seen.data.length === 2, 'two books');
  expect(seen.data[0]).toMatchObject({
    bids: [
      { price: 0.62, size: 100 },
      { price: 0.61, size: 50 },
    ],
    asks: [{ price: 0.64, size: 75 }],
    timestamp: 1_783_600_000_000,
  });
  // The second message replaces the first entirely: no level of the old book survives.
  expect(seen.data[1]).toMatchObject({ bids: [{ price: 0.63, size: 10 }], asks: [{ price: 0.64, size: 70 }], timestamp: 1_783_600_001_000 });
  expect(seen.errors).toEqual([]);
  await feed.stop();
});

test('a second watcher shares the connection and starts from the current book; the last one leaving unsubscribes and closes', async () => {
  const first = collect<OrderBook>();
  const a = stream.watchOrderBook(yes);
  a.start(first.listener);
  await until(() => subscribes().length === 1, 'subscribe');
  venue.send(l2('#1730', 1, [['0.5', '3']], [['0.6', '4']]));
  await until(() => first.data.length === 1, 'first book');

  const second = collect<OrderBook>();
  const b = stream.watchOrderBook(yes);
  b.start(second.listener);
  await until(() => second.data.length === 1, 'current book for the second watcher');
  expect(second.data[0]).toMatchObject({ bids: [{ price: 0.5, size: 3 }] });
  // The other side is its own coin, on the same connection.
  const c = stream.watchOrderBook(no);
  c.start(collect<OrderBook>().listener);
  await until(() => subscribes().length === 2, 'second coin');
  expect(subscribes().map((message) => message.subscription?.coin)).toEqual(['#1730', '#1731']);
  expect(venue.requestUrls).toHaveLength(1);

  await a.stop();
  await c.stop();
  await until(() => unsubscribes().length === 1, 'unsubscribe of #1731');
  expect(unsubscribes()[0]).toEqual({ method: 'unsubscribe', subscription: { type: 'l2Book', coin: '#1731' } });
  expect(venue.sockets.size).toBe(1);
  await b.stop();
  await until(() => venue.sockets.size === 0, 'connection closed');
  expect(stream.coins).toEqual({ l2Book: [], trades: [] });
});

test('trades: a batch of prints of the coin, B a buy and A a sell, with the outcome id', async () => {
  const seen = collect<Trade[]>();
  const feed = stream.watchTrades(no);
  feed.start(seen.listener);
  await until(() => subscribes('trades').length === 1, 'subscribe');
  expect(subscribes('trades')[0]!.subscription).toEqual({ type: 'trades', coin: '#1731' });
  venue.send({
    channel: 'trades',
    data: [
      { coin: '#1731', side: 'B', px: '0.37', sz: '12', time: 1_783_600_000_000, hash: '0xabc', tid: 901, users: ['0x1', '0x2'] },
      { coin: '#1731', side: 'A', px: '0.36', sz: '3', time: 1_783_600_000_100, hash: '0xabd', tid: 902, users: ['0x3', '0x4'] },
    ],
  });
  await until(() => seen.data.length === 1, 'trades');
  expect(seen.data[0]).toEqual([
    { id: '901', timestamp: 1_783_600_000_000, price: 0.37, amount: 12, side: 'buy', outcomeId: no },
    { id: '902', timestamp: 1_783_600_000_100, price: 0.36, amount: 3, side: 'sell', outcomeId: no },
  ]);
  await feed.stop();
});

test('a dropped connection is reported, redialled and every coin subscribed again; the old book is not served meanwhile', async () => {
  const seen = collect<OrderBook>();
  const feed = stream.watchOrderBook(yes);
  feed.start(seen.listener);
  const prints = stream.watchTrades(yes);
  prints.start(collect<Trade[]>().listener);
  await until(() => subscribes().length === 2, 'subscribes');
  venue.send(l2('#1730', 1, [['0.5', '3']], []));
  await until(() => seen.data.length === 1, 'book');

  venue.drop();
  await until(() => venue.requestUrls.length === 2 && subscribes().length === 4, 'redial and resubscribe');
  expect(seen.errors.map((error) => [error.code, error.retryable])).toContainEqual(['NETWORK_ERROR', true]);
  expect(
    subscribes()
      .slice(2)
      .map((message) => message.subscription)
      .sort((x, y) => x!.type.localeCompare(y!.type)),
  ).toEqual([
    { type: 'l2Book', coin: '#1730' },
    { type: 'trades', coin: '#1730' },
  ]);
  // A watcher joining before the fresh book gets nothing stale: its first book is the fresh one.
  const late = collect<OrderBook>();
  const other = stream.watchOrderBook(yes);
  other.start(late.listener);
  venue.send(l2('#1730', 2, [['0.52', '1']], []));
  await until(() => seen.data.length === 2, 'fresh book');
  expect(late.data).toEqual([seen.data[1]]);
  await Promise.all([feed.stop(), prints.stop(), other.stop()]);
});

test('an unreadable message is a retryable error, never a wrong book', async () => {
  const seen = collect<OrderBook>();
  const feed = stream.watchOrderBook(yes);
  feed.start(seen.listener);
  await until(() => subscribes().length === 1, 'subscribe');
  venue.send(l2('#1730', 1, [['0.5', '3']], []));
  await until(() => seen.data.length === 1, 'book');

  venue.send({ channel: 'l2Book', data: { coin: '#1730', time: 2, levels: [[{ px: 'abc', sz: '1', n: 1 }], []] } });
  venue.send({ channel: 'l2Book', data: { coin: '#1730', time: 3, levels: [[]] } });
  venue.send({ channel: 'l2Book', data: { coin: '#1730', levels: [[], []] } });
  venue.send('not json');
  await until(() => seen.errors.length === 4, 'four errors');
  expect(seen.data).toHaveLength(1);
  expect(seen.errors.every((error) => error.code === 'EXCHANGE_NOT_AVAILABLE' && error.retryable)).toBe(true);
  expect(seen.errors[0]!.message).toMatch(/l2Book message for #1730 .*unreadable levels/);
  expect(seen.errors[3]!.message).toMatch(/not JSON/);

  // A second watcher does not start from the book before the bad message: its first book is the next good one.
  const late = collect<OrderBook>();
  const other = stream.watchOrderBook(yes);
  other.start(late.listener);
  venue.send(l2('#1730', 4, [['0.51', '2']], []));
  await until(() => seen.data.length === 2, 'the next good book');
  expect(late.data).toEqual([seen.data[1]]);
  await Promise.all([feed.stop(), other.stop()]);
});

test('a trade without a side or size is an error, not a print; a venue error naming the coin reaches its watchers', async () => {
  const seen = collect<Trade[]>();
  const feed = stream.watchTrades(yes);
  feed.start(seen.listener);
  await until(() => subscribes().length === 1, 'subscribe');
  venue.send({ channel: 'trades', data: [{ coin: '#1730', px: '0.4', sz: '1', time: 5, tid: 1 }] });
  venue.send({ channel: 'trades', data: { coin: '#1730' } });
  venue.send({ channel: 'error', data: 'Invalid subscription {"type":"trades","coin":"#1730"}' });
  await until(() => seen.errors.length === 3, 'three errors');
  expect(seen.data).toEqual([]);
  expect(seen.errors[2]!.message).toContain('Invalid subscription');
  await feed.stop();
});

test('an id that is not an outcome id ends the feed; keepalive pings go out', async () => {
  const seen = collect<OrderBook>();
  const bad = stream.watchOrderBook('KXFED-26');
  bad.start(seen.listener);
  await until(() => seen.errors.length === 1, 'error');
  expect(seen.errors[0]).toMatchObject({ code: 'OUTCOME_NOT_FOUND', retryable: false });
  expect(venue.requestUrls).toHaveLength(0);

  const feed = stream.watchOrderBook(yes);
  feed.start(collect<OrderBook>().listener);
  await until(() => received().filter((message) => message.method === 'ping').length >= 2, 'pings');
  await feed.stop();
  await bad.stop();
});

test('close() ends the connection', async () => {
  const feed = stream.watchTrades(yes);
  feed.start(collect<Trade[]>().listener);
  await until(() => venue.sockets.size === 1 && subscribes().length === 1, 'connected');
  await stream.close();
  await until(() => venue.sockets.size === 0, 'closed');
  // Not dialled again by itself: a watch after the close opens the one new connection.
  const after = stream.watchTrades(yes);
  after.start(collect<Trade[]>().listener);
  await until(() => subscribes().length === 2, 'the new watch subscribed');
  expect(venue.requestUrls).toHaveLength(2);
  await Promise.all([feed.stop(), after.stop()]);
});

test('a socket that closes cleanly is redialled too', async () => {
  const feed = stream.watchOrderBook(yes);
  const seen = collect<OrderBook>();
  feed.start(seen.listener);
  await until(() => subscribes().length === 1, 'subscribe');
  for (const socket of venue.sockets) socket.close(1001);
  await until(() => subscribes().length === 2, 'resubscribed');
  await feed.stop();
});

test('a watcher from before close() stopping later leaves the books and prints of watchers started after it alone', async () => {
  const before = watchBookAndTrades(stream, yes);
  await until(() => subscribes().length === 2, 'subscribed');
  await stream.close();

  const after = watchBookAndTrades(stream, yes);
  await until(() => subscribes().length === 4 && venue.sockets.size === 1, 'subscribed again');
  await before.stop();
  expect(stream.coins).toEqual({ l2Book: ['#1730'], trades: ['#1730'] });
  expect(unsubscribes()).toEqual([]);

  venue.send(l2('#1730', 2, [['0.5', '1']], []));
  venue.send({ channel: 'trades', data: [{ coin: '#1730', side: 'B', px: '0.5', sz: '2', time: 3, hash: '0x1', tid: 1, users: ['0xa', '0xb'] }] });
  await until(() => after.books.data.length === 1 && after.prints.data.length === 1, 'book and prints for the watchers started after close()');
  await after.stop();
});
