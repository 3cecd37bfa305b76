import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fixedClock } from '@predgate/core';
import { LocalSocketVenue, until, watchBookAndTrades } from '@predgate/core/testkit';
import { afterEach, expect, test } from 'vitest';
import { testKeyId, testPrivateKey } from '../../test/support/test-key.js';
import { KalshiStream } from './market-stream.js';

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

/** A websocket venue on 127.0.0.1, closed after the test. */
async function localVenue(): Promise<LocalSocketVenue> {
  const venue = await LocalSocketVenue.start();
  cleanup.push(() => venue.close());
  return venue;
}

/** The venue's Kalshi-shaped URL. */
const kalshiUrl = (venue: LocalSocketVenue) => `${venue.url}/trade-api/ws/v2`;

/** A signed stream over `urls`, closed after the test. */
function kalshiStream(urls: string[]): KalshiStream {
  const stream = new KalshiStream({
    urls,
    venue: 'kalshi',
    credentials: { apiKey: testKeyId, privateKey: testPrivateKey },
    clock: fixedClock(Date.UTC(2026, 10, 26)),
    pingIntervalMs: 10_000,
    backoff: { initialMs: 5, maxMs: 10 },
  });
  cleanup.push(() => stream.close());
  return stream;
}

test('a websocket host that refuses the connection hands the redial to the next root, with the same signed path', async () => {
  const alive = await localVenue();
  const dead = `ws://127.0.0.1:${await closedPort()}/trade-api/ws/v2`;

  const stream = kalshiStream([dead, kalshiUrl(alive)]);
  const errors: string[] = [];
  const feed = stream.watchOrderBook('KXFEDDECISION-26JUN-H0');
  feed.start({ data: () => undefined, error: (error) => errors.push(error.code) });
  cleanup.push(() => feed.stop());

  await until(() => alive.requestUrls.length > 0, 'a connection to the live host', 3_000);
  expect(alive.requestUrls).toEqual(['/trade-api/ws/v2']);
  // The refused dial was reported as a retryable network error, never as a wrong ticker.
  expect(errors.every((code) => code === 'NETWORK_ERROR')).toBe(true);
});

test('a watcher from before close() stopping later leaves the book and prints of watchers started after it subscribed', async () => {
  const stream = kalshiStream([kalshiUrl(await localVenue())]);
  const outcome = 'KXFEDDECISION-26JUN-H0';
  const before = watchBookAndTrades(stream, outcome);
  await stream.close();

  const after = watchBookAndTrades(stream, outcome);
  cleanup.push(() => after.stop());
  await before.stop();
  expect(stream.tickers).toEqual({ orderbook_delta: [outcome], trade: [outcome] });
});

test('a ticker the venue does not know ends the watches of both its outcomes with OUTCOME_NOT_FOUND, not retryable', async () => {
  const venue = await localVenue();
  const stream = kalshiStream([kalshiUrl(venue)]);
  const yes = watchBookAndTrades(stream, 'KXNOPE-1');
  const no = watchBookAndTrades(stream, 'KXNOPE-1-NO');
  cleanup.push(
    () => yes.stop(),
    () => no.stop(),
  );
  const subscribes = () => venue.frames.map((text) => JSON.parse(text) as { id: number; cmd: string }).filter((command) => command.cmd === 'subscribe');
  await until(() => subscribes().length === 2, 'a subscribe command per channel');
  // Kalshi's refusal of an unknown market (code 16), answering each command by its id.
  for (const { id } of subscribes()) venue.send({ id, type: 'error', msg: { code: 16, msg: 'Market not found' } });
  const watchers = [yes.books, yes.prints, no.books, no.prints];
  await until(() => watchers.every((watcher) => watcher.errors.length > 0), 'every watcher told');
  for (const watcher of watchers) {
    expect(watcher.errors.map(({ code, retryable }) => ({ code, retryable }))).toEqual([{ code: 'OUTCOME_NOT_FOUND', retryable: false }]);
  }
  expect(yes.books.errors[0]!.message).toContain('KXNOPE-1');
});
