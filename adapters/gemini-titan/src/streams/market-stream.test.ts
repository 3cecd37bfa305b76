import { until, watchBookAndTrades } from '@predgate/core/testkit';
import type { LocalSocketVenue } from '@predgate/core/testkit';
import type { OrderBook, PredgateError, Trade } from '@predgate/core';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { localGeminiStream, localGeminiVenue } from '../../test/support/local-stream.js';
import type { GeminiStream } from './market-stream.js';

/*
 * Gemini's market-data websocket replayed on 127.0.0.1, in the documented
 * shapes: `{"id":"1","method":"subscribe","params":["<symbol>@depth20"]}`
 * answered `{"id":"1","status":200}`; partial-depth messages
 * `{lastUpdateId, symbol, bids: [[price, qty]], asks}` (the symbol may come
 * back in lower case) carry the top levels whole; trades `{E (ns), s, t, p, q, m}`.
 */

const symbol = 'GEMI-DEMNOM2028-DEMNOM28AOC';
const yes = `${symbol}:yes`;
const no = `${symbol}:no`;

interface Sent {
  id: string;
  method: string;
  params: string[];
}

let venue: LocalSocketVenue;
let stream: GeminiStream;

beforeEach(async () => {
  venue = await localGeminiVenue();
  stream = localGeminiStream(venue);
});

afterEach(async () => {
  await stream.close();
  await venue.close();
});

const commands = (method: string) => venue.frames.map((frame) => JSON.parse(frame) as Sent).filter((message) => message.method === method);

function depth(bids: Array<[string, string]>, asks: Array<[string, string]>, name = symbol.toLowerCase()) {
  return { lastUpdateId: 12_345_678, symbol: name, bids, asks };
}

function collect<T>() {
  const data: T[] = [];
  const errors: PredgateError[] = [];
  return { data, errors, listener: { data: (payload: T) => data.push(payload), error: (error: PredgateError) => errors.push(error) } };
}

test('YES and NO share one depth stream; each message is the whole top of the book; NO is the YES book mirrored', async () => {
  const y = collect<OrderBook>();
  const n = collect<OrderBook>();
  const a = stream.watchOrderBook(yes);
  const b = stream.watchOrderBook(no);
  a.start(y.listener);
  b.start(n.listener);
  await until(() => commands('subscribe').length === 1, 'subscribe');
  expect(commands('subscribe')[0]!.params).toEqual([`${symbol}@depth20`]);

  venue.send(
    depth(
      [
        ['0.27', '1200'],
        ['0.26', '300'],
      ],
      [['0.29', '500']],
    ),
  );
  await until(() => y.data.length === 1 && n.data.length === 1, 'books');
  expect(y.data[0]).toMatchObject({
    bids: [
      { price: 0.27, size: 1200 },
      { price: 0.26, size: 300 },
    ],
    asks: [{ price: 0.29, size: 500 }],
    timestamp: Date.UTC(2026, 10, 26),
  });
  expect(n.data[0]).toMatchObject({
    bids: [{ price: 0.71, size: 500 }],
    asks: [
      { price: 0.73, size: 1200 },
      { price: 0.74, size: 300 },
    ],
  });
  // The next message replaces the book entirely; a zero quantity is no level.
  // `E` in nanoseconds, as sent: more digits than a double holds exactly.
  venue.send(`{"lastUpdateId":12345679,"symbol":"${symbol.toLowerCase()}","E":1787200000123456789,"bids":[["0.28","10"]],"asks":[["0.3","0"]]}`);
  await until(() => y.data.length === 2, 'second book');
  expect(y.data[1]).toMatchObject({ bids: [{ price: 0.28, size: 10 }], asks: [], timestamp: 1_787_200_000_123 });
  expect(commands('subscribe')).toHaveLength(1);
  await Promise.all([a.stop(), b.stop()]);
});

test('a second watcher shares the connection and starts from the current book; the last leaving unsubscribes and closes', async () => {
  const first = collect<OrderBook>();
  const a = stream.watchOrderBook(yes);
  a.start(first.listener);
  await until(() => commands('subscribe').length === 1, 'subscribe');
  venue.send(depth([['0.5', '3']], [['0.6', '4']]));
  await until(() => first.data.length === 1, 'first book');

  const second = collect<OrderBook>();
  const b = stream.watchOrderBook(no);
  b.start(second.listener);
  await until(() => second.data.length === 1, 'current book for the second watcher');
  expect(second.data[0]).toMatchObject({ bids: [{ price: 0.4, size: 4 }], asks: [{ price: 0.5, size: 3 }] });

  // Another contract is subscribed alone, on the same connection.
  const c = stream.watchOrderBook('GEMI-BTC2608212100-HI61000:yes');
  c.start(collect<OrderBook>().listener);
  await until(() => commands('subscribe').length === 2, 'second contract');
  expect(commands('subscribe')[1]!.params).toEqual(['GEMI-BTC2608212100-HI61000@depth20']);
  expect(venue.requestUrls).toHaveLength(1);

  await c.stop();
  await until(() => commands('unsubscribe').length === 1, 'unsubscribe');
  expect(commands('unsubscribe')[0]!.params).toEqual(['GEMI-BTC2608212100-HI61000@depth20']);
  await a.stop();
  expect(venue.sockets.size).toBe(1);
  await b.stop();
  await until(() => venue.sockets.size === 0, 'connection closed');
  expect(stream.symbols).toEqual({ book: [], trade: [] });
});

test('trades: YES prints as sent (m: the taker sold), NO prints at 1 − p with the side reversed', async () => {
  const y = collect<Trade[]>();
  const n = collect<Trade[]>();
  const a = stream.watchTrades(yes);
  const b = stream.watchTrades(no);
  a.start(y.listener);
  b.start(n.listener);
  await until(() => commands('subscribe').length === 1, 'subscribe');
  expect(commands('subscribe')[0]!.params).toEqual([`${symbol}@trade`]);
  venue.send({ E: 1_787_199_000_000_000_000, s: symbol.toLowerCase(), t: 2840140800000001, p: '0.27', q: '150', m: true });
  await until(() => y.data.length === 1 && n.data.length === 1, 'prints');
  expect(y.data[0]).toEqual([{ id: '2840140800000001', timestamp: 1_787_199_000_000, price: 0.27, amount: 150, side: 'sell', outcomeId: yes }]);
  expect(n.data[0]).toEqual([{ id: '2840140800000001', timestamp: 1_787_199_000_000, price: 0.73, amount: 150, side: 'buy', outcomeId: no }]);
  await Promise.all([a.stop(), b.stop()]);
});

test('an unreadable message is a retryable error, never a wrong book', async () => {
  const seen = collect<OrderBook>();
  const trades = collect<Trade[]>();
  const feed = stream.watchOrderBook(yes);
  feed.start(seen.listener);
  const tape = stream.watchTrades(yes);
  tape.start(trades.listener);
  await until(() => commands('subscribe').length === 2, 'subscribe');
  venue.send(depth([['0.5', '3']], []));
  await until(() => seen.data.length === 1, 'book');

  venue.send(depth([['abc', '3']], []));
  venue.send(depth([['0.5', '3']], [['45001.00', '1']]));
  venue.send({ lastUpdateId: 1, bids: [], asks: [] });
  venue.send({ ...depth([], []), asks: 'none' });
  venue.send({ E: 1, s: symbol, t: 1, p: '0.4', q: '1' });
  venue.send('not json');
  await until(() => seen.errors.length === 5 && trades.errors.length === 3, 'errors');
  expect(seen.data).toHaveLength(1);
  expect(trades.data).toEqual([]);
  expect([...seen.errors, ...trades.errors].every((error) => error.code === 'EXCHANGE_NOT_AVAILABLE' && error.retryable)).toBe(true);
  expect(seen.errors[0]!.message).toMatch(/depth message for GEMI-DEMNOM2028-DEMNOM28AOC with unreadable levels/);
  expect(seen.errors[2]!.message).toMatch(/without a symbol/);
  expect(trades.errors.map((error) => error.message).join(' ')).toMatch(/maker flag/);
  // The book before the unreadable levels is not handed to a later watcher: its first book is the next one sent.
  const late = collect<OrderBook>();
  const other = stream.watchOrderBook(yes);
  other.start(late.listener);
  venue.send(depth([['0.52', '1']], []));
  await until(() => late.data.length === 1, 'the next book');
  expect(late.data[0]).toMatchObject({ bids: [{ price: 0.52, size: 1 }], asks: [] });
  await Promise.all([feed.stop(), tape.stop(), other.stop()]);
});

test('close() ends the connection', async () => {
  const feed = stream.watchTrades(yes);
  feed.start(collect<Trade[]>().listener);
  await until(() => venue.sockets.size === 1 && commands('subscribe').length === 1, 'connected');
  await stream.close();
  await until(() => venue.sockets.size === 0, 'closed');
  // Not dialled again by itself: a watch after the close opens the one new connection.
  const after = stream.watchTrades(yes);
  after.start(collect<Trade[]>().listener);
  await until(() => commands('subscribe').length === 2, 'the new watch subscribed');
  expect(venue.requestUrls).toHaveLength(2);
  await Promise.all([feed.stop(), after.stop()]);
});

test('a watcher from before close() stopping later leaves the books and prints of watchers started after it alone', async () => {
  const before = watchBookAndTrades(stream, yes);
  await until(() => commands('subscribe').length === 2, 'subscribed');
  await stream.close();

  const after = watchBookAndTrades(stream, yes);
  await until(() => commands('subscribe').length === 4 && venue.sockets.size === 1, 'subscribed again');
  await before.stop();
  expect(stream.symbols).toEqual({ book: [symbol], trade: [symbol] });
  expect(commands('unsubscribe')).toEqual([]);

  venue.send(depth([['0.5', '3']], [['0.6', '4']]));
  venue.send({ E: 1_787_199_000_000_000_000, s: symbol.toLowerCase(), t: 2840140800000002, p: '0.27', q: '150', m: true });
  await until(() => after.books.data.length === 1 && after.prints.data.length === 1, 'book and prints for the watchers started after close()');
  await after.stop();
});
