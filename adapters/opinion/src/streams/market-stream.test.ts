import { PredgateError, normalizeOrderBook } from '@predgate/core';
import { LocalSocketVenue, until } from '@predgate/core/testkit';
import type { FeedListener, OrderBook, PredgateError as Failure, Trade } from '@predgate/core';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { localOpinionStream } from '../../test/support/local-stream.js';
import type { OpinionStream } from './market-stream.js';
import type { OpinionStreamOptions } from './market-stream.js';

const yesToken = '52114319501245915516055106046884209969926127482827954674443846427813813222426';
const noToken = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
const marketId = '3122';

/** Collects what a feed delivers. */
function collector<T>() {
  const data: T[] = [];
  const errors: Failure[] = [];
  const listener: FeedListener<T> = { data: (payload) => data.push(payload), error: (error) => errors.push(error) };
  return { data, errors, listener };
}

const diff = (token: string, side: 'bids' | 'asks', price: string, size: string) => ({
  marketId: Number(marketId),
  tokenId: token,
  outcomeSide: token === yesToken ? 1 : 2,
  side,
  price,
  size,
  msgType: 'market.depth.diff',
});

/** Opinion's websocket on 127.0.0.1: it answers nothing itself; each test sends what the venue would. */
let venue: LocalSocketVenue;
let snapshots: string[];
let books: Record<string, OrderBook>;
let cleanup: Array<() => Promise<void> | void> = [];

beforeEach(async () => {
  venue = await LocalSocketVenue.start();
  snapshots = [];
  books = {
    [yesToken]: normalizeOrderBook({
      bids: [
        { price: 0.41, size: 100 },
        { price: 0.4, size: 50 },
      ],
      asks: [{ price: 0.43, size: 80 }],
      timestamp: 1_764_000_000_000,
    }),
    [noToken]: normalizeOrderBook({ bids: [{ price: 0.57, size: 10 }], asks: [{ price: 0.59, size: 20 }], timestamp: 1_764_000_000_000 }),
  };
});
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
  await venue.close();
});

/** The messages clients sent with this action (and channel), in order. */
const actions = (action: string, channel?: string) =>
  venue.frames
    .map((frame) => JSON.parse(frame) as Record<string, unknown>)
    .filter((message) => message.action === action && (channel === undefined || message.channel === channel));

/** The `apikey` each connection was opened with. */
const keys = () => venue.requestUrls.map((url) => new URL(url, 'ws://localhost').searchParams.get('apikey') ?? '');

function stream(overrides: Partial<OpinionStreamOptions> = {}): OpinionStream {
  const instance = localOpinionStream(
    venue,
    { marketId, tokens: [yesToken, noToken] },
    {
      async snapshot(tokenId) {
        snapshots.push(tokenId);
        return books[tokenId]!;
      },
      ...overrides,
    },
  );
  cleanup.push(() => instance.close());
  return instance;
}

test('subscribes the market once with the key, seeds each book over REST and applies absolute-size diffs to full books', async () => {
  const opinion = stream();
  const yes = collector<OrderBook>();
  const feed = opinion.watchOrderBook(yesToken);
  feed.start(yes.listener);
  cleanup.push(() => feed.stop());

  await until(() => yes.data.length === 1 && actions('SUBSCRIBE').length === 1, 'the seeded book');
  expect(keys()).toEqual(['read-key']);
  expect(actions('SUBSCRIBE')).toEqual([{ action: 'SUBSCRIBE', channel: 'market.depth.diff', marketId: 3122 }]);
  expect(yes.data[0]!.bids).toEqual([
    { price: 0.41, size: 100 },
    { price: 0.4, size: 50 },
  ]);

  venue.send(diff(yesToken, 'bids', '0.41', '0'));
  venue.send(diff(yesToken, 'asks', '0.42', '12.5'));
  // The NO token's diffs come on the same subscription and touch no YES book.
  venue.send(diff(noToken, 'bids', '0.58', '5'));
  await until(() => yes.data.length === 3, 'two updates');
  const book = yes.data.at(-1)!;
  expect(book.bids).toEqual([{ price: 0.4, size: 50 }]);
  expect(book.asks).toEqual([
    { price: 0.42, size: 12.5 },
    { price: 0.43, size: 80 },
  ]);
  expect(book.timestamp).toBe(Date.UTC(2026, 10, 26));
  expect(book.sourceMetadata).toMatchObject({ tokenId: yesToken, marketId, source: 'stream' });
  expect(yes.errors).toEqual([]);

  // The HEARTBEAT keepalive goes out on its interval.
  await until(() => actions('HEARTBEAT').length > 0, 'a heartbeat');
});

test('diffs arriving while the REST book is read are applied after it', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const opinion = stream({
    async snapshot(tokenId) {
      snapshots.push(tokenId);
      await gate;
      return books[tokenId]!;
    },
  });
  const yes = collector<OrderBook>();
  const prints = collector<Trade[]>();
  const feed = opinion.watchOrderBook(yesToken);
  const trades = opinion.watchTrades(yesToken);
  feed.start(yes.listener);
  trades.start(prints.listener);
  cleanup.push(
    () => feed.stop(),
    () => trades.stop(),
  );
  await until(() => snapshots.length === 1 && actions('SUBSCRIBE', 'market.last.trade').length === 1, 'the REST read and the trade subscription');
  venue.send(diff(yesToken, 'bids', '0.42', '7'));
  // A print sent after the diff marks it as read: the book still waits for its REST read.
  venue.send({ marketId: 3122, tokenId: yesToken, side: 'Buy', price: '0.42', shares: '7', msgType: 'market.last.trade' });
  await until(() => prints.data.length === 1, 'the print after the diff');
  expect(yes.data).toEqual([]);
  release();
  await until(() => yes.data.length === 1, 'the seeded book');
  expect(yes.data[0]!.bids[0]).toEqual({ price: 0.42, size: 7 });
});

test('a second watcher shares the connection and the subscription; the YES and NO tokens share the market; the last one leaving unsubscribes and closes', async () => {
  const opinion = stream();
  const first = collector<OrderBook>();
  const second = collector<OrderBook>();
  const no = collector<OrderBook>();
  const a = opinion.watchOrderBook(yesToken);
  a.start(first.listener);
  await until(() => first.data.length === 1, 'the first book');
  const b = opinion.watchOrderBook(yesToken);
  b.start(second.listener);
  const c = opinion.watchOrderBook(noToken);
  c.start(no.listener);
  // The second watcher starts from the book already known.
  await until(() => second.data.length === 1 && no.data.length === 1, 'the second watcher and the NO book');
  expect(second.data[0]).toEqual(first.data[0]);
  expect(no.data[0]!.bids).toEqual([{ price: 0.57, size: 10 }]);
  expect(actions('SUBSCRIBE')).toHaveLength(1);
  expect(keys()).toHaveLength(1);

  await a.stop();
  await c.stop();
  // A heartbeat sent after the stops follows any unsubscription they sent.
  const heartbeats = actions('HEARTBEAT').length;
  await until(() => actions('HEARTBEAT').length > heartbeats, 'a heartbeat after the stops');
  expect(actions('UNSUBSCRIBE')).toEqual([]);
  expect(venue.sockets.size).toBe(1);
  await b.stop();
  await until(() => actions('UNSUBSCRIBE').length === 1 || venue.sockets.size === 0, 'the unsubscription or the close');
  await until(() => venue.sockets.size === 0, 'the connection closed');
  expect(opinion.markets).toEqual({ 'market.depth.diff': [], 'market.last.trade': [] });
});

test('trades: the last-trade channel delivers prints of the token watched', async () => {
  const opinion = stream();
  const prints = collector<Trade[]>();
  const feed = opinion.watchTrades(noToken);
  feed.start(prints.listener);
  cleanup.push(() => feed.stop());
  await until(() => actions('SUBSCRIBE', 'market.last.trade').length === 1, 'the trade subscription');
  expect(actions('SUBSCRIBE')).toEqual([{ action: 'SUBSCRIBE', channel: 'market.last.trade', marketId: 3122 }]);
  const trade = { marketId: 3122, side: 'Buy', outcomeSide: 2, price: '0.58', shares: '25', amount: '14.5', msgType: 'market.last.trade' };
  venue.send({ ...trade, tokenId: yesToken });
  venue.send({ ...trade, tokenId: noToken });
  await until(() => prints.data.length === 1, 'the NO print');
  expect(prints.data[0]).toEqual([{ id: expect.any(String), timestamp: Date.UTC(2026, 10, 26), price: 0.58, amount: 25, side: 'buy', outcomeId: noToken }]);
  // No REST book read is needed for trades.
  expect(snapshots).toEqual([]);
});

test('a dropped connection is redialled, resubscribed and every book read again', async () => {
  const opinion = stream();
  const yes = collector<OrderBook>();
  const feed = opinion.watchOrderBook(yesToken);
  feed.start(yes.listener);
  cleanup.push(() => feed.stop());
  // The subscription reaches the venue before the drop (the book is read over REST, without it).
  await until(() => yes.data.length === 1 && actions('SUBSCRIBE').length === 1, 'the first book and the subscription');
  books[yesToken] = normalizeOrderBook({ bids: [{ price: 0.45, size: 3 }], asks: [], timestamp: 1_764_000_100_000 });
  venue.drop();
  await until(() => yes.errors.some((error) => error.code === 'NETWORK_ERROR' && error.retryable), 'the drop reported');
  await until(() => actions('SUBSCRIBE').length === 2 && yes.data.length === 2, 'the redial, resubscription and fresh book');
  expect(keys()).toEqual(['read-key', 'read-key']);
  expect(snapshots).toEqual([yesToken, yesToken]);
  expect(yes.data[1]!.bids).toEqual([{ price: 0.45, size: 3 }]);
});

test('an unreadable diff is an error and the book is read again, never a wrong book', async () => {
  const opinion = stream();
  const yes = collector<OrderBook>();
  const feed = opinion.watchOrderBook(yesToken);
  feed.start(yes.listener);
  cleanup.push(() => feed.stop());
  await until(() => yes.data.length === 1, 'the first book');

  venue.send({ ...diff(yesToken, 'bids', '0.41', '5'), side: 'buy' });
  await until(() => yes.errors.length === 1, 'the error');
  expect(yes.errors[0]).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', retryable: true });
  expect(yes.errors[0]!.message).toMatch(/unreadable side/);
  await until(() => snapshots.length === 2 && yes.data.length === 2, 'the book read again');
  expect(yes.data[1]).toEqual(yes.data[0]);

  venue.send('not json');
  await until(() => yes.errors.length === 2, 'the second error');
  expect(yes.errors[1]!.message).toMatch(/not JSON/);
  venue.send({ ...diff(yesToken, 'asks', 'x', '1') });
  await until(() => yes.errors.length === 3, 'the third error');
  expect(yes.errors[2]!.message).toMatch(/unreadable price/);
  // Nothing wrong was delivered in between.
  for (const book of yes.data) expect(book.asks).toEqual([{ price: 0.43, size: 80 }]);
});

test('an unknown outcome ends its watch; no key ends it before any connection', async () => {
  const opinion = stream();
  const unknown = collector<OrderBook>();
  const feed = opinion.watchOrderBook('123456789012345678901234567890');
  feed.start(unknown.listener);
  cleanup.push(() => feed.stop());
  await until(() => unknown.errors.length === 1, 'the refusal');
  expect(unknown.errors[0]).toMatchObject({ code: 'OUTCOME_NOT_FOUND', retryable: false });

  const keyless = stream({ apiKey: undefined });
  const none = collector<Trade[]>();
  const other = keyless.watchTrades(yesToken);
  other.start(none.listener);
  cleanup.push(() => other.stop());
  await until(() => none.errors.length === 1, 'the key error');
  expect(none.errors[0]).toMatchObject({ code: 'AUTHENTICATION_ERROR', retryable: false });
  expect(keys()).toEqual([]);
});

test('a look-up that fails for a while is retried, reported as retryable meanwhile', async () => {
  let failures = 2;
  const opinion = stream({
    async locate(outcomeId) {
      if (failures-- > 0) throw new PredgateError('EXCHANGE_NOT_AVAILABLE', 'opinion answered HTTP 503', { exchange: 'opinion', retryable: true });
      return { tokenId: outcomeId, marketId };
    },
  });
  const yes = collector<OrderBook>();
  const feed = opinion.watchOrderBook(yesToken);
  feed.start(yes.listener);
  cleanup.push(() => feed.stop());
  await until(() => yes.data.length === 1, 'the book after the retries');
  expect(yes.errors.map((error) => [error.code, error.retryable])).toEqual([
    ['EXCHANGE_NOT_AVAILABLE', true],
    ['EXCHANGE_NOT_AVAILABLE', true],
  ]);
});
