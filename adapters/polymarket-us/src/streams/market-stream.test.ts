import { createPrivateKey, createPublicKey, verify } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { fixedClock } from '@predgate/core';
import { LocalSocketVenue, until } from '@predgate/core/testkit';
import type { OrderBook, PredgateError, Trade } from '@predgate/core';
import { afterEach, expect, test } from 'vitest';
import { PolymarketUsStream } from './market-stream.js';

const slug = 'tec-mlb-nlchamp-2026-09-27-mil';
const other = 'aec-mlb-mil-chc-2026-09-07';
/** A test key: the seed is 32 bytes of 7s, never a real account's. */
const credentials = { apiKey: '9f2c1b7e-4a63-4d21-8e5f-0b7a3c9d1e42', privateKey: Buffer.alloc(32, 7).toString('base64') };
const now = 1_788_000_000_000;

interface Command {
  subscribe?: { requestId: string; subscriptionType: string; marketSlugs: string[] };
  unsubscribe?: { requestId: string };
}

/** The markets websocket on 127.0.0.1: it records each upgrade request, for the signed headers. */
async function startMarkets() {
  const upgrades: IncomingMessage[] = [];
  const venue = await LocalSocketVenue.start({ onConnection: (_socket, request) => upgrades.push(request) });
  const commands = () => venue.frames.map((frame) => JSON.parse(frame) as Command);
  return Object.assign(venue, {
    upgrades,
    subscribes: (type = 'SUBSCRIPTION_TYPE_MARKET_DATA') =>
      commands().flatMap((command) => (command.subscribe?.subscriptionType === type ? [command.subscribe] : [])),
    unsubscribes: () => commands().flatMap((command) => (command.unsubscribe ? [command.unsubscribe.requestId] : [])),
  });
}

const px = (value: string) => ({ value, currency: 'USD' });
/** A `marketData` frame as the venue pushes it: the market's whole long-side book. */
const frame = (
  requestId: string,
  market: string,
  bids: Array<[string, string]>,
  offers: Array<[string, string]>,
  transactTime = '2026-09-06T00:57:41.446134874Z',
) => ({
  requestId,
  subscriptionType: 'SUBSCRIPTION_TYPE_MARKET_DATA',
  marketData: {
    marketSlug: market,
    bids: bids.map(([price, qty]) => ({ px: px(price), qty })),
    offers: offers.map(([price, qty]) => ({ px: px(price), qty })),
    state: 'MARKET_STATE_OPEN',
    transactTime,
  },
});

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function setup(given: typeof credentials | null = credentials) {
  const venue = await startMarkets();
  cleanup.push(() => venue.close());
  const stream = new PolymarketUsStream({
    url: `${venue.url}/v1/ws/markets`,
    venue: 'polymarket_us',
    credentials: given ?? undefined,
    clock: fixedClock(now),
    pingIntervalMs: 10_000,
    backoff: { initialMs: 5, maxMs: 10 },
  });
  cleanup.push(() => stream.close());
  return { venue, stream };
}

function books(stream: PolymarketUsStream, market: string, side: 'long' | 'short') {
  const got: OrderBook[] = [];
  const errors: PredgateError[] = [];
  const feed = stream.watchOrderBook(market, side);
  feed.start({ data: (book) => got.push(book), error: (error) => errors.push(error) });
  return { books: got, errors, stop: () => feed.stop() };
}

test('the handshake is signed with Ed25519 over {ts}GET/v1/ws/markets; a marketData frame gives the long book and its mirror for short', async () => {
  const { venue, stream } = await setup();
  const long = books(stream, slug, 'long');
  const short = books(stream, slug, 'short');
  await until(() => venue.subscribes().length === 1, 'subscribe');
  const upgrade = venue.upgrades[0]!;
  expect(upgrade.url).toBe('/v1/ws/markets');
  expect(upgrade.headers['x-pm-access-key']).toBe(credentials.apiKey);
  expect(upgrade.headers['x-pm-timestamp']).toBe(String(now));
  const seed = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.alloc(32, 7)]);
  const publicKey = createPublicKey(createPrivateKey({ key: seed, format: 'der', type: 'pkcs8' }));
  expect(verify(null, Buffer.from(`${now}GET/v1/ws/markets`), publicKey, Buffer.from(String(upgrade.headers['x-pm-signature']), 'base64'))).toBe(true);
  // Both sides share the market's one subscription.
  const [subscribe] = venue.subscribes();
  expect(subscribe!.marketSlugs).toEqual([slug]);

  venue.send(
    frame(
      subscribe!.requestId,
      slug,
      [
        ['0.2650', '27.0000'],
        ['0.2640', '113.0000'],
      ],
      [['0.2900', '40.0000']],
    ),
  );
  await until(() => long.books.length === 1 && short.books.length === 1, 'first books');
  expect(long.books[0]!.bids).toEqual([
    { price: 0.265, size: 27 },
    { price: 0.264, size: 113 },
  ]);
  expect(long.books[0]!.asks).toEqual([{ price: 0.29, size: 40 }]);
  expect(long.books[0]!.timestamp).toBe(Date.parse('2026-09-06T00:57:41.446Z'));
  expect(short.books[0]!.bids).toEqual([{ price: 0.71, size: 40 }]);
  expect(short.books[0]!.asks).toEqual([
    { price: 0.735, size: 27 },
    { price: 0.736, size: 113 },
  ]);
  expect(short.books[0]!.sourceMetadata).toMatchObject({ marketSlug: slug, side: 'short', source: 'stream' });

  // The next frame replaces the book whole; a heartbeat and lite quotes change nothing.
  venue.send({ heartbeat: {} });
  venue.send({ requestId: 'x', subscriptionType: 'SUBSCRIPTION_TYPE_MARKET_DATA_LITE', marketDataLite: { marketSlug: slug, bestBid: px('0.3') } });
  venue.send({
    requestId: subscribe!.requestId,
    subscriptionType: 'SUBSCRIPTION_TYPE_MARKET_DATA',
    marketData: { marketSlug: slug, offers: [{ px: px('0.3'), qty: '5' }] },
  });
  await until(() => long.books.length === 2, 'second book');
  expect(long.books[1]!.bids).toEqual([]);
  expect(long.books[1]!.asks).toEqual([{ price: 0.3, size: 5 }]);
  expect(long.errors).toEqual([]);
});

test('a second watcher shares the connection and starts from the current book; each slug is subscribed and unsubscribed alone; the last leaving closes', async () => {
  const { venue, stream } = await setup();
  const first = books(stream, slug, 'long');
  await until(() => venue.subscribes().length === 1, 'subscribe');
  venue.send(frame(venue.subscribes()[0]!.requestId, slug, [['0.4', '1']], [['0.6', '2']]));
  await until(() => first.books.length === 1, 'first book');

  const second = books(stream, slug, 'short');
  await until(() => second.books.length === 1, 'current book for the second watcher');
  expect(second.books[0]!.bids).toEqual([{ price: 0.4, size: 2 }]);
  const third = books(stream, other, 'long');
  await until(() => venue.subscribes().length === 2, 'subscribe of the new slug');
  expect(venue.subscribes()[1]!.marketSlugs).toEqual([other]);
  expect(venue.sockets.size).toBe(1);

  await first.stop();
  await second.stop();
  await until(() => venue.unsubscribes().length === 1, 'unsubscribe');
  expect(venue.unsubscribes()).toEqual([venue.subscribes()[0]!.requestId]);
  expect(venue.sockets.size).toBe(1);
  await third.stop();
  await until(() => venue.sockets.size === 0, 'connection closed');
});

test('trades are priced on the watched side, with the taker side from its intent', async () => {
  const { venue, stream } = await setup();
  const long: Trade[][] = [];
  const short: Trade[][] = [];
  const a = stream.watchTrades(slug, 'long');
  const b = stream.watchTrades(slug, 'short');
  a.start({ data: (batch) => long.push(batch), error: () => undefined });
  b.start({ data: (batch) => short.push(batch), error: () => undefined });
  cleanup.push(
    () => a.stop(),
    () => b.stop(),
  );
  await until(() => venue.subscribes('SUBSCRIPTION_TYPE_TRADE').length === 1, 'trade subscribe');
  venue.send({
    requestId: venue.subscribes('SUBSCRIPTION_TYPE_TRADE')[0]!.requestId,
    subscriptionType: 'SUBSCRIPTION_TYPE_TRADE',
    trade: {
      marketSlug: slug,
      price: px('0.2650'),
      quantity: px('10'),
      tradeTime: '2026-09-06T00:58:00Z',
      maker: { side: 'ORDER_SIDE_SELL', intent: 'ORDER_INTENT_SELL_LONG' },
      taker: { side: 'ORDER_SIDE_BUY', intent: 'ORDER_INTENT_BUY_LONG' },
    },
  });
  await until(() => long.length === 1 && short.length === 1, 'prints');
  expect(long[0]![0]).toMatchObject({ price: 0.265, amount: 10, side: 'buy', outcomeId: `${slug}:long`, timestamp: Date.parse('2026-09-06T00:58:00Z') });
  expect(short[0]![0]).toMatchObject({ price: 0.735, amount: 10, side: 'sell', outcomeId: `${slug}:short` });
});

test('a dropped connection is reported, redialled and resubscribed', async () => {
  const { venue, stream } = await setup();
  const long = books(stream, slug, 'long');
  await until(() => venue.subscribes().length === 1, 'subscribe');
  venue.drop();
  await until(() => long.errors.length > 0, 'error on drop');
  expect(long.errors[0]!.code).toBe('NETWORK_ERROR');
  expect(long.errors[0]!.retryable).toBe(true);
  await until(() => venue.subscribes().length === 2, 'resubscribe');
  expect(venue.upgrades).toHaveLength(2);
  const again = venue.subscribes()[1]!;
  expect(again.marketSlugs).toEqual([slug]);
  venue.send(frame(again.requestId, slug, [['0.45', '3']], []));
  await until(() => long.books.length === 1, 'book after the redial');
  expect(long.books[0]!.bids).toEqual([{ price: 0.45, size: 3 }]);
});

test('an unreadable frame is a retryable error, never a wrong book; a refused subscription of an unknown market ends the watch', async () => {
  const { venue, stream } = await setup();
  const long = books(stream, slug, 'long');
  await until(() => venue.subscribes().length === 1, 'subscribe');
  const { requestId } = venue.subscribes()[0]!;
  venue.send(frame(requestId, slug, [['0.4', '1']], []));
  await until(() => long.books.length === 1, 'first book');

  venue.send({ requestId, marketData: { marketSlug: slug, bids: [{ px: '0.4', qty: '1' }] } });
  venue.send({ requestId, marketData: { marketSlug: slug, bids: [{ px: px('40'), qty: '1' }] } });
  venue.send({ requestId, marketData: { bids: [] } });
  venue.send('not json');
  await until(() => long.errors.length === 4, 'four errors');
  expect(long.errors.map((error) => error.code)).toEqual(Array(4).fill('EXCHANGE_NOT_AVAILABLE'));
  expect(long.errors.every((error) => error.retryable)).toBe(true);
  expect(long.books).toHaveLength(1);

  const missing = books(stream, 'no-such-market', 'long');
  await until(() => venue.subscribes().length === 2, 'second subscribe');
  venue.send({ requestId: venue.subscribes()[1]!.requestId, error: 'market with slug "no-such-market" not found' });
  await until(() => missing.errors.length === 1, 'refusal');
  expect(missing.errors[0]!.code).toBe('OUTCOME_NOT_FOUND');
  expect(missing.errors[0]!.retryable).toBe(false);
});

test('without a key the watch fails at once, before any connection', async () => {
  const { venue, stream } = await setup(null);
  const long = books(stream, slug, 'long');
  await until(() => long.errors.length === 1, 'error');
  expect(long.errors[0]!.code).toBe('AUTHENTICATION_ERROR');
  expect(long.errors[0]!.retryable).toBe(false);
  expect(venue.upgrades).toHaveLength(0);
});
