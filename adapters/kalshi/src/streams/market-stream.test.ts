import { constants, createPublicKey, verify } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { collectFeed, until, watchBookAndTrades } from '@predgate/core/testkit';
import type { CollectedFeed } from '@predgate/core/testkit';
import type { OrderBook, Trade } from '@predgate/core';
import { afterEach, expect, test } from 'vitest';
import { commandsTo, kalshiUrl, localKalshiStream, localKalshiVenue, websocketPayloads as payloads } from '../../test/support/local-stream.js';
import { testKeyId, testPrivateKey } from '../../test/support/test-key.js';
import type { KalshiStream } from './market-stream.js';

/*
 * What is Kalshi's own: the signed handshake, both price units, one
 * subscription per market shared by YES and NO and taken apart by id, sequence
 * gaps, the host list, and the key the handshake needs. The conformance every
 * stream passes is in test/stream.test.ts.
 */

const ticker = 'KXFEDDECISION-26JUN-H0';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** A port nothing listens on: connecting to it is refused at once. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A local Kalshi venue and a stream signed with the test key on it, both closed after the test. */
async function scene(options: Parameters<typeof localKalshiVenue>[0] = {}) {
  const upgrades: IncomingMessage[] = [];
  const venue = await localKalshiVenue({ ...options, hooks: { onConnection: (_socket, request) => upgrades.push(request) } });
  const stream = localKalshiStream([kalshiUrl(venue)]);
  cleanup.push(
    () => venue.close(),
    () => stream.close(),
  );
  return { venue, stream, upgrades, commands: (cmd?: string) => commandsTo(venue, cmd) };
}

/** A started book watch, stopped after the test. */
function watchBook(stream: KalshiStream, outcomeId: string): CollectedFeed<OrderBook> {
  const seen = collectFeed<OrderBook>();
  const feed = stream.watchOrderBook(outcomeId);
  feed.start(seen.listener);
  cleanup.push(() => feed.stop());
  return seen;
}

test('the handshake is signed (RSA-PSS over timestamp + GET + /trade-api/ws/v2); deltas in current and legacy units change the YES book', async () => {
  const { venue, stream, upgrades, commands } = await scene();
  const books = watchBook(stream, ticker);
  await until(() => commands('subscribe').length === 1, 'subscribe');
  expect(commands('subscribe')[0]!.params).toEqual({ channels: ['orderbook_delta'], market_tickers: [ticker] });
  const upgrade = upgrades[0]!;
  expect(upgrade.url).toBe('/trade-api/ws/v2');
  expect(upgrade.headers['kalshi-access-key']).toBe(testKeyId);
  const signed = verify(
    'sha256',
    Buffer.from(`${String(upgrade.headers['kalshi-access-timestamp'])}GET/trade-api/ws/v2`),
    { key: createPublicKey(testPrivateKey), padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
    Buffer.from(String(upgrade.headers['kalshi-access-signature']), 'base64'),
  );
  expect(signed).toBe(true);

  venue.send(payloads.snapshot);
  venue.send(payloads.delta);
  venue.send(payloads.legacyDelta);
  await until(() => books.data.length === 3, 'three books');
  expect(books.data[0]!.datetime).toBe(new Date(books.data[0]!.timestamp).toISOString());
  expect(books.data[1]!.timestamp).toBe(Date.parse('2026-05-14T14:05:01Z'));
  // The legacy delta: 10 more NO bids at 56 cents, a YES ask at 0.44.
  expect(books.data[2]!.asks[0]).toEqual({ price: 0.44, size: 10 });
  expect(books.data[2]!.sourceMetadata).toEqual({ ticker, side: 'yes', source: 'stream' });
});

test('YES and NO share the market’s one subscription; a new ticker is subscribed alone; leaving tickers are taken out, then unsubscribed', async () => {
  const { venue, stream, commands } = await scene();
  const yes = stream.watchOrderBook(ticker);
  const no = stream.watchOrderBook(`${ticker}-NO`);
  const yesBooks = collectFeed<OrderBook>();
  const noBooks = collectFeed<OrderBook>();
  yes.start(yesBooks.listener);
  no.start(noBooks.listener);
  await until(() => commands('subscribe').length === 1, 'one subscribe');
  expect(commands('subscribe')[0]!.params.market_tickers).toEqual([ticker]);
  venue.send(payloads.snapshot);
  await until(() => yesBooks.data.length === 1 && noBooks.data.length === 1, 'both books');
  expect(noBooks.data[0]!.bids[0]).toEqual({ price: 0.55, size: 2 });
  expect(noBooks.data[0]!.asks[0]).toEqual({ price: 0.58, size: 13 });
  expect(noBooks.data[0]!.sourceMetadata).toEqual({ ticker, side: 'no', source: 'stream' });

  const other = stream.watchOrderBook('KXOTHER-1');
  other.start(collectFeed<OrderBook>().listener);
  await until(() => commands('subscribe').length === 2, 'the other ticker subscribed');
  expect(commands('subscribe')[1]!.params.market_tickers).toEqual(['KXOTHER-1']);

  await no.stop();
  await yes.stop();
  // The ticker had its own subscription (sid 1): unsubscribed by id once both outcomes left.
  await until(() => commands('unsubscribe').length === 1, 'unsubscribe');
  expect(commands('unsubscribe')[0]!.params.sids).toEqual([1]);
  await other.stop();
  await until(() => venue.sockets.size === 0, 'connection closed with the last ticker');
});

test('a ticker leaving a subscription it shares is deleted from it with update_subscription', async () => {
  const { venue, stream, commands } = await scene({ acknowledge: false });
  const first = stream.watchOrderBook(ticker);
  const second = stream.watchOrderBook('KXOTHER-1');
  const books = collectFeed<OrderBook>();
  first.start(books.listener);
  second.start(collectFeed<OrderBook>().listener);
  cleanup.push(() => second.stop());
  await until(() => commands('subscribe').length === 1, 'one subscribe for both tickers');
  const command = commands('subscribe')[0]!;
  expect(command.params.market_tickers).toEqual([ticker, 'KXOTHER-1']);
  venue.send({ id: command.id, type: 'subscribed', msg: { channel: 'orderbook_delta', sid: 7 } });
  venue.send({ ...payloads.snapshot, sid: 7 });
  // The book shows the acknowledgement was read before it.
  await until(() => books.data.length === 1, 'book');
  await first.stop();
  await until(() => commands('update_subscription').length === 1, 'update_subscription');
  expect(commands('update_subscription')[0]!.params).toEqual({ sids: [7], market_tickers: [ticker], action: 'delete_markets' });
  expect(commands('unsubscribe')).toEqual([]);
});

test('a sequence gap resubscribes the ticker for a fresh snapshot, with a retryable error meanwhile', async () => {
  const { venue, stream, commands } = await scene();
  const books = watchBook(stream, ticker);
  await until(() => commands('subscribe').length === 1, 'subscribe');
  venue.send(payloads.snapshot);
  await until(() => books.data.length === 1, 'snapshot');
  venue.send({ ...payloads.delta, seq: 5 });
  await until(() => books.errors.length === 1, 'the gap told');
  expect(books.errors[0]).toMatchObject({ code: 'NETWORK_ERROR', retryable: true, message: expect.stringContaining('sequence 2 expected, 5 came') });
  await until(() => commands('unsubscribe').length === 1 && commands('subscribe').length === 2, 'unsubscribed and subscribed again');
  expect(commands('unsubscribe')[0]!.params.sids).toEqual([1]);
  // The fresh subscription (sid 2 on this connection) starts its own count.
  venue.send({ ...payloads.snapshot, sid: 2 });
  await until(() => books.data.length === 2, 'fresh snapshot');
  expect(books.data[1]!.bids[0]).toEqual({ price: 0.42, size: 13 });
});

test('a delta that cannot be read resubscribes too: the book never goes on without it', async () => {
  const { venue, stream, commands } = await scene();
  const books = watchBook(stream, ticker);
  await until(() => commands('subscribe').length === 1, 'subscribe');
  venue.send(payloads.snapshot);
  await until(() => books.data.length === 1, 'snapshot');
  venue.send({ ...payloads.delta, msg: { market_ticker: ticker, price_dollars: 'abc', delta_fp: '1', side: 'yes' } });
  await until(() => commands('subscribe').length === 2, 'subscribed again');
  expect(books.errors.map(({ code, retryable }) => ({ code, retryable }))).toEqual([
    { code: 'EXCHANGE_NOT_AVAILABLE', retryable: true },
    { code: 'NETWORK_ERROR', retryable: true },
  ]);
  // Deltas for the old subscription change nothing.
  venue.send({ ...payloads.delta, seq: 3 });
  venue.send({ ...payloads.snapshot, sid: 2 });
  await until(() => books.data.length === 2, 'fresh snapshot');
  expect(books.data[1]!.bids[0]).toEqual({ price: 0.42, size: 13 });
});

test('trades: the trade channel’s prints, priced for the outcome watched', async () => {
  const { venue, stream, commands } = await scene();
  const tape = watchBookAndTrades(stream, `${ticker}-NO`);
  cleanup.push(() => tape.stop());
  await until(() => commands('subscribe').length === 2, 'both channels');
  venue.send(payloads.trade);
  await until(() => tape.prints.data.length === 1, 'prints');
  expect(tape.prints.data[0]).toEqual([
    { id: 'd91bc706-ee49-470d-82d8-11418bda6fed', timestamp: 1778767501000, price: 0.64, amount: 136, side: 'buy', outcomeId: `${ticker}-NO` },
  ]);
});

test('a legacy snapshot in cents reads the same', async () => {
  const { venue, stream, commands } = await scene();
  const books = watchBook(stream, `${ticker}-NO`);
  await until(() => commands('subscribe').length === 1, 'subscribe');
  venue.send({
    type: 'orderbook_snapshot',
    sid: 1,
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
  await until(() => books.data.length === 1, 'book');
  expect(books.data[0]).toMatchObject({
    bids: [
      { price: 0.55, size: 2 },
      { price: 0.54, size: 40 },
    ],
    asks: [{ price: 0.58, size: 13 }],
  });
});

test('without any API key for the handshake, a watch gets AUTHENTICATION_ERROR at once and no connection is made', async () => {
  const venue = await localKalshiVenue();
  cleanup.push(() => venue.close());
  const stream = localKalshiStream([kalshiUrl(venue)], { signed: false });
  cleanup.push(() => stream.close());
  const seen = watchBookAndTrades(stream, ticker);
  cleanup.push(() => seen.stop());
  await until(() => seen.books.errors.length === 1 && seen.prints.errors.length === 1, 'both refused');
  expect(seen.books.errors[0]).toMatchObject({ code: 'AUTHENTICATION_ERROR', retryable: false });
  expect(JSON.stringify(seen.books.errors[0])).not.toContain('PRIVATE');
  expect(venue.requestUrls).toEqual([]);
});

test('a websocket host that refuses the connection hands the redial to the next root, with the same signed path', async () => {
  const alive = await localKalshiVenue();
  cleanup.push(() => alive.close());
  const dead = `ws://127.0.0.1:${await closedPort()}/trade-api/ws/v2`;
  const stream = localKalshiStream([dead, kalshiUrl(alive)]);
  cleanup.push(() => stream.close());
  const seen = watchBook(stream, ticker);
  await until(() => alive.requestUrls.length > 0, 'a connection to the live host');
  expect(alive.requestUrls).toEqual(['/trade-api/ws/v2']);
  // The refused dial was reported as a retryable network error, never as a wrong ticker.
  expect(seen.errors.every((error) => error.code === 'NETWORK_ERROR')).toBe(true);
});

test('a watcher from before close() stopping later leaves the book and prints of watchers started after it subscribed', async () => {
  const { stream } = await scene();
  const before = watchBookAndTrades(stream, ticker);
  await stream.close();
  const after = watchBookAndTrades(stream, ticker);
  cleanup.push(() => after.stop());
  await before.stop();
  expect(stream.tickers).toEqual({ orderbook_delta: [ticker], trade: [ticker] });
});

test('a ticker the venue does not know, asked for with a good one, is refused alone: the good one is subscribed on its own and served', async () => {
  const { venue, stream, commands } = await scene();
  const good = watchBook(stream, ticker);
  const unknown = watchBook(stream, 'KXNOPE-1');
  await until(() => unknown.errors.length > 0, 'the unknown ticker refused');
  expect(commands('subscribe').map((command) => command.params.market_tickers)).toEqual([[ticker, 'KXNOPE-1'], [ticker], ['KXNOPE-1']]);
  expect(unknown.errors.map(({ code, retryable }) => ({ code, retryable }))).toEqual([{ code: 'OUTCOME_NOT_FOUND', retryable: false }]);
  venue.send(payloads.snapshot);
  await until(() => good.data.length === 1, 'the good ticker’s book');
  expect(good.errors).toEqual([]);
});

test('a ticker the venue does not know ends the watches of both its outcomes with OUTCOME_NOT_FOUND, not retryable', async () => {
  const { stream, commands } = await scene();
  const yes = watchBookAndTrades(stream, 'KXNOPE-1');
  const no = watchBookAndTrades(stream, 'KXNOPE-1-NO');
  cleanup.push(
    () => yes.stop(),
    () => no.stop(),
  );
  const watchers: Array<CollectedFeed<OrderBook> | CollectedFeed<Trade[]>> = [yes.books, yes.prints, no.books, no.prints];
  await until(() => watchers.every((watcher) => watcher.errors.length > 0), 'every watcher told');
  expect(commands('subscribe')).toHaveLength(2);
  for (const watcher of watchers) {
    expect(watcher.errors.map(({ code, retryable }) => ({ code, retryable }))).toEqual([{ code: 'OUTCOME_NOT_FOUND', retryable: false }]);
  }
  expect(yes.books.errors[0]!.message).toContain('KXNOPE-1');
});
