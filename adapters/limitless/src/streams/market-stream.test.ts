import { fixedClock } from '@predgate/core';
import { engineIoOpen, startSocketIoVenue, until } from '@predgate/core/testkit';
import type { OrderBook, PredgateError } from '@predgate/core';
import { afterEach, expect, test } from 'vitest';
import { LimitlessStream, engineUrl } from './market-stream.js';

const slug = 'eth-up-or-down-daily-1788105600';
const other = 'btc-above-120k-1788105600';

/** The `/markets` namespace's Socket.IO venue, with the slugs of each market-prices (un)subscription received. */
async function startMarketsVenue(open: string) {
  const venue = await startSocketIoVenue('/markets', open);
  const slugsOf = (name: string) => venue.emitted(name).map((payload) => (payload as { marketSlugs: string[] }).marketSlugs);
  return Object.assign(venue, {
    subscribes: () => slugsOf('subscribe_market_prices'),
    unsubscribes: () => slugsOf('unsubscribe_market_prices'),
  });
}

/** A feed's deliveries, as they come. */
function watch(stream: LimitlessStream, market: string, side: 'yes' | 'no') {
  const books: OrderBook[] = [];
  const errors: PredgateError[] = [];
  const feed = stream.watchOrderBook(market, side);
  feed.start({ data: (book) => books.push(book), error: (error) => errors.push(error) });
  return { books, errors, stop: () => feed.stop() };
}

/** An `orderbookUpdate` as the venue pushes it: the REST book (raw 6-decimal sizes) inside, an ISO timestamp beside. */
const update = (market: string, bids: Array<[number, number]>, asks: Array<[number, number]>, timestamp = '2026-08-31T07:30:01.000Z') => ({
  marketSlug: market,
  orderbook: {
    bids: bids.map(([price, size]) => ({ price, size: size * 1e6, side: 'BUY' })),
    asks: asks.map(([price, size]) => ({ price: String(price), size: String(size * 1e6), side: 'SELL' })),
    tokenId: '25018063611559838047404811982184442876005199660833597814711111046007291893507',
    lastTradePrice: 0.11,
  },
  timestamp,
});

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function setup(open = engineIoOpen) {
  const venue = await startMarketsVenue(open);
  cleanup.push(() => venue.close());
  const stream = new LimitlessStream({
    url: venue.url,
    venue: 'limitless',
    clock: fixedClock(Date.UTC(2026, 7, 31, 7, 30)),
    pingIntervalMs: 10_000,
    backoff: { initialMs: 5, maxMs: 10 },
  });
  cleanup.push(() => stream.close());
  return { venue, stream };
}

test('the Engine.IO endpoint is derived from the Socket.IO root', () => {
  expect(engineUrl('wss://ws.limitless.exchange')).toBe('wss://ws.limitless.exchange/socket.io/?EIO=4&transport=websocket');
  expect(engineUrl('ws://127.0.0.1:9/socket.io/')).toBe('ws://127.0.0.1:9/socket.io/?EIO=4&transport=websocket');
});

test('joins /markets, subscribes the slug, and turns each pushed YES book into full books (NO inverted); pings are answered', async () => {
  const { venue, stream } = await setup();
  const yes = watch(stream, slug, 'yes');
  const no = watch(stream, slug, 'no');
  await until(() => venue.subscribes().length === 1, 'subscribe');
  expect(venue.requestUrls).toEqual(['/socket.io/?EIO=4&transport=websocket']);
  expect(venue.frames[0]).toBe('40/markets,');
  expect(venue.subscribes()).toEqual([[slug]]);

  venue.emit(
    'orderbookUpdate',
    update(
      slug,
      [
        [0.11, 50],
        [0.12, 83.334],
      ],
      [[0.219, 100]],
    ),
  );
  await until(() => yes.books.length === 1 && no.books.length === 1, 'first books');
  expect(yes.books[0]!.bids).toEqual([
    { price: 0.12, size: 83.334 },
    { price: 0.11, size: 50 },
  ]);
  expect(yes.books[0]!.asks).toEqual([{ price: 0.219, size: 100 }]);
  expect(yes.books[0]!.timestamp).toBe(Date.parse('2026-08-31T07:30:01.000Z'));
  expect(yes.books[0]!.datetime).toBe('2026-08-31T07:30:01.000Z');
  expect(yes.books[0]!.lastTradePrice).toBe(0.11);
  // NO: bids are one minus the YES asks, asks one minus the YES bids.
  expect(no.books[0]!.bids).toEqual([{ price: 0.781, size: 100 }]);
  expect(no.books[0]!.asks).toEqual([
    { price: 0.88, size: 83.334 },
    { price: 0.89, size: 50 },
  ]);
  expect(no.books[0]!.lastTradePrice).toBe(0.89);

  // The next push replaces the book whole.
  venue.emit('orderbookUpdate', update(slug, [[0.1, 5]], [], '2026-08-31T07:30:02.000Z'));
  await until(() => yes.books.length === 2, 'second book');
  expect(yes.books[1]!.bids).toEqual([{ price: 0.1, size: 5 }]);
  expect(yes.books[1]!.asks).toEqual([]);

  // Engine.IO heartbeat: the server's ping is answered with a pong.
  venue.send('2');
  await until(() => venue.frames.includes('3'), 'pong');
  // Another market's push reaches nobody here; AMM prices are not read.
  venue.emit('orderbookUpdate', update(other, [[0.5, 1]], []));
  venue.emit('newPriceData', { marketAddress: '0xabc', updatedPrices: { yes: 0.5, no: 0.5 } });
  // The watched market's next push, sent after them, is the next book: nothing came in between.
  venue.emit('orderbookUpdate', update(slug, [[0.2, 3]], [], '2026-08-31T07:30:03.000Z'));
  await until(() => yes.books.length >= 3, 'third book');
  expect(yes.books).toHaveLength(3);
  expect(yes.books[2]!.bids).toEqual([{ price: 0.2, size: 3 }]);
  expect(yes.errors).toEqual([]);
});

test('a second watcher shares the connection and starts from the current book; the last one leaving unsubscribes and closes', async () => {
  const { venue, stream } = await setup();
  const first = watch(stream, slug, 'yes');
  await until(() => venue.subscribes().length === 1, 'subscribe');
  venue.emit('orderbookUpdate', update(slug, [[0.4, 1]], [[0.6, 2]]));
  await until(() => first.books.length === 1, 'first book');

  const second = watch(stream, slug, 'no');
  await until(() => second.books.length === 1, 'the current book for the second watcher');
  expect(second.books[0]!.bids).toEqual([{ price: 0.4, size: 2 }]);
  const third = watch(stream, other, 'yes');
  await until(() => venue.subscribes().length === 2, 'subscribe of the new slug');
  expect(venue.sockets.size).toBe(1);
  expect(venue.subscribes()[1]).toEqual([slug, other]);

  await first.stop();
  await second.stop();
  await until(() => venue.unsubscribes().length === 1, 'unsubscribe');
  expect(venue.unsubscribes()).toEqual([[slug]]);
  expect(stream.slugs).toEqual([other]);
  expect(venue.sockets.size).toBe(1);
  await third.stop();
  await until(() => venue.sockets.size === 0, 'connection closed');
  expect(venue.unsubscribes().at(-1)).toEqual([other]);
});

test('a dropped connection is reported, redialled and the slugs subscribed again', async () => {
  const { venue, stream } = await setup();
  const yes = watch(stream, slug, 'yes');
  await until(() => venue.subscribes().length === 1, 'subscribe');
  venue.emit('orderbookUpdate', update(slug, [[0.4, 1]], []));
  await until(() => yes.books.length === 1, 'first book');

  venue.drop();
  await until(() => yes.errors.length > 0, 'error on drop');
  expect(yes.errors[0]!.code).toBe('NETWORK_ERROR');
  expect(yes.errors[0]!.retryable).toBe(true);
  await until(() => venue.subscribes().length === 2, 'resubscribe');
  expect(venue.requestUrls).toHaveLength(2);
  expect(venue.subscribes()[1]).toEqual([slug]);
  venue.emit('orderbookUpdate', update(slug, [[0.45, 3]], []));
  await until(() => yes.books.length === 2, 'book after the redial');
  expect(yes.books[1]!.bids).toEqual([{ price: 0.45, size: 3 }]);
});

test('an unreadable message is a retryable error, never a wrong book; the namespace refused is reported and redialled', async () => {
  const { venue, stream } = await setup();
  const yes = watch(stream, slug, 'yes');
  await until(() => venue.subscribes().length === 1, 'subscribe');
  venue.emit('orderbookUpdate', update(slug, [[0.4, 1]], []));
  await until(() => yes.books.length === 1, 'first book');

  venue.emit('orderbookUpdate', { marketSlug: slug, orderbook: { bids: [{ price: 'abc', size: 1 }], asks: [] } });
  venue.emit('orderbookUpdate', { marketSlug: slug, orderbook: { bids: [{ price: 40, size: 1e6 }], asks: [] } });
  venue.emit('orderbookUpdate', { marketSlug: slug, orderbook: { asks: [] } });
  venue.emit('orderbookUpdate', { orderbook: { bids: [], asks: [] } });
  venue.send('42/markets,{not json');
  await until(() => yes.errors.length === 5, 'five errors');
  expect(yes.errors.map((error) => error.code)).toEqual(Array(5).fill('EXCHANGE_NOT_AVAILABLE'));
  expect(yes.errors.every((error) => error.retryable)).toBe(true);
  expect(yes.errors[0]!.message).toMatch(/bids or asks/);
  expect(yes.errors[3]!.message).toMatch(/without marketSlug/);
  expect(yes.errors[4]!.message).toMatch(/not JSON/);
  expect(yes.books).toHaveLength(1);

  venue.send('44/markets,{"message":"Not authorized"}');
  await until(() => yes.errors.some((error) => /Not authorized/.test(error.message)), 'namespace refusal');
  await until(() => venue.subscribes().length === 2, 'resubscribe after the refusal');
});

test('a connection the venue goes silent on (no frame within its ping interval plus timeout) is dropped and redialled', async () => {
  const { venue, stream } = await setup('0{"sid":"engine-1","upgrades":[],"pingInterval":30,"pingTimeout":20}');
  const yes = watch(stream, slug, 'yes');
  await until(() => venue.subscribes().length === 1, 'subscribe');
  // No pings from the venue: after about 50 ms of silence the connection is given up and dialled again.
  await until(() => venue.requestUrls.length >= 2 && venue.subscribes().length >= 2, 'redial after silence');
  expect(yes.errors[0]!.code).toBe('NETWORK_ERROR');
});
