import { LocalSocketVenue, until } from '@predgate/core/testkit';
import type { FeedListener, OrderBook, PredgateError } from '@predgate/core';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { localProbableStream } from '../../test/support/local-stream.js';
import type { ProbableStream } from './book-stream.js';

const yes = '42922145754268586232753586497078434283008194607014016171721522108902381902084';
const no = '5722005404824512810116175401897660245563008472737131911791837693804332853698';

interface Command {
  id: number;
  method: string;
  params: string[];
}

function collector() {
  const data: OrderBook[] = [];
  const errors: PredgateError[] = [];
  const listener: FeedListener<OrderBook> = { data: (payload) => data.push(payload), error: (error) => errors.push(error) };
  return { data, errors, listener };
}

const snapshot = (token: string) => ({
  stream: `book:${token}`,
  data: {
    market: '0x36ccb011c5fb04535598c3e89661278fb1f60030e3187cdda18d460cbf42de1b',
    asset_id: token,
    timestamp: '1778767354',
    bids: [
      { price: '0.6', size: '2500' },
      { price: '0.61', size: '1200.5' },
    ],
    asks: [{ price: '0.63', size: '900' }],
  },
});

/** Probable's websocket on 127.0.0.1. */
let venue: LocalSocketVenue;
/** Whether commands are acknowledged with status 200. */
let ack: boolean;
let cleanup: Array<() => Promise<void> | void> = [];
beforeEach(async () => {
  ack = true;
  venue = await LocalSocketVenue.start({
    onFrame(text, socket) {
      if (ack) socket.send(JSON.stringify({ id: (JSON.parse(text) as Command).id, status: 200, result: null }));
    },
  });
});
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
  await venue.close();
});

/** The commands clients sent with this method, in order. */
const commands = (method: string) => venue.frames.map((frame) => JSON.parse(frame) as Command).filter((command) => command.method === method);

function stream(): ProbableStream {
  const instance = localProbableStream(venue);
  cleanup.push(() => instance.close());
  return instance;
}

test('subscribes book:<token> on {url}/ws?chainId=56; a whole book, then price changes, give full books', async () => {
  const probable = stream();
  const watcher = collector();
  const feed = probable.watchOrderBook(yes);
  feed.start(watcher.listener);
  cleanup.push(() => feed.stop());
  await until(() => commands('SUBSCRIBE').length === 1, 'the subscription');
  expect(venue.requestUrls).toEqual(['/public/api/v1/ws?chainId=56']);
  expect(commands('SUBSCRIBE')[0]!.params).toEqual([`book:${yes}`]);

  venue.send(snapshot(yes));
  await until(() => watcher.data.length === 1, 'the book');
  expect(watcher.data[0]).toMatchObject({
    bids: [
      { price: 0.61, size: 1200.5 },
      { price: 0.6, size: 2500 },
    ],
    asks: [{ price: 0.63, size: 900 }],
    timestamp: 1_778_767_354_000,
  });

  venue.send({
    stream: `book:${yes}`,
    data: {
      event_type: 'price_change',
      timestamp: '1778767400000',
      price_changes: [
        { asset_id: yes, price: '0.61', size: '0', side: 'BUY' },
        { asset_id: yes, price: '0.62', size: '40', side: 'SELL' },
        { asset_id: no, price: '0.3', size: '1', side: 'BUY' },
      ],
    },
  });
  await until(() => watcher.data.length === 2, 'the changed book');
  expect(watcher.data[1]).toMatchObject({
    bids: [{ price: 0.6, size: 2500 }],
    asks: [
      { price: 0.62, size: 40 },
      { price: 0.63, size: 900 },
    ],
    timestamp: 1_778_767_400_000,
    sourceMetadata: { tokenId: yes, source: 'stream' },
  });

  // A later whole book replaces it.
  venue.send({ stream: `book:${yes}`, data: { bids: [], asks: [{ price: '0.7', size: '1' }], timestamp: '1778767500' } });
  await until(() => watcher.data.length === 3, 'the replaced book');
  expect(watcher.data[2]).toMatchObject({ bids: [], asks: [{ price: 0.7, size: 1 }] });
  expect(watcher.errors).toEqual([]);
});

test('a second watcher shares the connection and the stream; the last one leaving unsubscribes and closes', async () => {
  const probable = stream();
  const first = collector();
  const second = collector();
  const other = collector();
  const a = probable.watchOrderBook(yes);
  a.start(first.listener);
  await until(() => commands('SUBSCRIBE').length === 1, 'the subscription');
  venue.send(snapshot(yes));
  await until(() => first.data.length === 1, 'the first book');
  const b = probable.watchOrderBook(yes);
  b.start(second.listener);
  await until(() => second.data.length === 1, 'the second watcher starts from the known book');
  expect(second.data[0]).toEqual(first.data[0]);

  await a.stop();
  // Another token's subscription, sent after the stop, follows any unsubscription the stop sent.
  const c = probable.watchOrderBook(no);
  c.start(other.listener);
  // Only the new token is named.
  await until(() => commands('SUBSCRIBE').length === 2, 'the second subscription');
  expect(commands('SUBSCRIBE')[1]!.params).toEqual([`book:${no}`]);
  expect(venue.requestUrls).toHaveLength(1);
  expect(commands('UNSUBSCRIBE')).toEqual([]);
  await b.stop();
  await until(() => commands('UNSUBSCRIBE').length === 1, 'the unsubscription');
  expect(commands('UNSUBSCRIBE')[0]!.params).toEqual([`book:${yes}`]);
  expect(venue.sockets.size).toBe(1);
  await c.stop();
  await until(() => venue.sockets.size === 0, 'the connection closed');
  expect(probable.tokens).toEqual([]);
});

test('a dropped connection is redialled and the token subscribed again', async () => {
  const probable = stream();
  const watcher = collector();
  const feed = probable.watchOrderBook(yes);
  feed.start(watcher.listener);
  cleanup.push(() => feed.stop());
  await until(() => commands('SUBSCRIBE').length === 1, 'the subscription');
  venue.send(snapshot(yes));
  await until(() => watcher.data.length === 1, 'the first book');
  venue.drop();
  await until(() => watcher.errors.some((error) => error.code === 'NETWORK_ERROR' && error.retryable), 'the drop reported');
  await until(() => commands('SUBSCRIBE').length === 2, 'the resubscription');
  expect(venue.requestUrls).toHaveLength(2);
  // Changes before the new whole book are not applied to the old one.
  venue.send({ stream: `book:${yes}`, data: { price_changes: [{ asset_id: yes, price: '0.5', size: '1', side: 'BUY' }] } });
  venue.send(snapshot(yes));
  await until(() => watcher.data.length === 2, 'the fresh book');
  expect(watcher.data[1]!.bids).toHaveLength(2);
});

test('an unreadable message is an error, the book is asked for again, and no wrong book is delivered', async () => {
  const probable = stream();
  const watcher = collector();
  const feed = probable.watchOrderBook(yes);
  feed.start(watcher.listener);
  cleanup.push(() => feed.stop());
  await until(() => commands('SUBSCRIBE').length === 1, 'the subscription');
  venue.send(snapshot(yes));
  await until(() => watcher.data.length === 1, 'the first book');

  venue.send({ stream: `book:${yes}`, data: { bids: [{ price: 'x', size: '1' }], asks: [] } });
  await until(() => watcher.errors.length === 1, 'the error');
  expect(watcher.errors[0]).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', retryable: true });
  expect(watcher.errors[0]!.message).toMatch(/unreadable bids/);
  await until(() => commands('SUBSCRIBE').length === 2, 'the stream asked for again');
  // A change to a book no longer known is not applied.
  venue.send({ stream: `book:${yes}`, data: { price_changes: [{ asset_id: yes, price: '0.5', size: '1', side: 'BUY' }] } });
  venue.send('garbage');
  await until(() => watcher.errors.length === 2, 'the second error');
  expect(watcher.errors[1]!.message).toMatch(/not JSON/);
  expect(watcher.data).toHaveLength(1);

  venue.send({ stream: `book:${yes}`, data: { price_changes: [{ asset_id: yes, price: '0.5', size: '1' }] } });
  await until(() => watcher.errors.length === 3, 'the third error');
  expect(watcher.data).toHaveLength(1);
});

test('a refused stream ends its watch; an id that is not a token is refused before any connection', async () => {
  const probable = stream();
  const bad = collector();
  const feed = probable.watchOrderBook('4512');
  feed.start(bad.listener);
  cleanup.push(() => feed.stop());
  await until(() => bad.errors.length === 1, 'the refusal');
  expect(bad.errors[0]).toMatchObject({ code: 'OUTCOME_NOT_FOUND', retryable: false });
  expect(venue.requestUrls).toEqual([]);

  ack = false;
  const refused = collector();
  const other = probable.watchOrderBook(no);
  other.start(refused.listener);
  cleanup.push(() => other.stop());
  await until(() => commands('SUBSCRIBE').length === 1, 'the subscription');
  venue.send({ id: commands('SUBSCRIBE')[0]!.id, status: 400, error: { message: 'unknown token' } });
  await until(() => refused.errors.length === 1, 'the refusal');
  expect(refused.errors[0]).toMatchObject({ code: 'OUTCOME_NOT_FOUND', retryable: false });
});
