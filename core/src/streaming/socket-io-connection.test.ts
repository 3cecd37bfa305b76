import { afterEach, expect, test } from 'vitest';
import type { PredgateError } from '../errors.js';
import { startSocketIoVenue, until } from '../testkit/local-socket-venue.js';
import type { SocketIoVenue } from '../testkit/local-socket-venue.js';
import { SocketIoConnection } from './socket-io-connection.js';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** A connection to a local Socket.IO venue in `/markets`, with what it reports recorded. */
async function connected() {
  const venue: SocketIoVenue = await startSocketIoVenue('/markets');
  const seen = { joins: 0, events: [] as Array<[string, unknown]>, problems: [] as PredgateError[], drops: [] as PredgateError[] };
  const connection = new SocketIoConnection({
    venue: 'test-venue',
    url: venue.url,
    namespace: '/markets',
    pingIntervalMs: 10_000,
    backoff: { initialMs: 5, maxMs: 10 },
    wanted: () => true,
    onJoin: () => (seen.joins += 1),
    onEvent: (name, payload) => seen.events.push([name, payload]),
    onDrop: (error) => seen.drops.push(error),
    onProblem: (error) => seen.problems.push(error),
  });
  cleanup.push(
    () => venue.close(),
    () => connection.close(),
  );
  connection.connect();
  await until(() => seen.joins === 1 && connection.isOpen, 'the namespace joined');
  return { venue, connection, seen };
}

test('joins the namespace on the Engine.IO path, emits in it once joined, and hands on the events of its namespace only', async () => {
  const { venue, connection, seen } = await connected();
  expect(venue.requestUrls[0]).toBe('/socket.io/?EIO=4&transport=websocket');
  expect(connection.emit('subscribe', { slugs: ['a'] })).toBe(true);
  await until(() => venue.emitted('subscribe').length === 1, 'the emitted event');
  expect(venue.emitted('subscribe')).toEqual([{ slugs: ['a'] }]);
  venue.send('42["elsewhere",{}]');
  venue.emit('update', { n: 1 });
  await until(() => seen.events.length === 1, 'the event');
  expect(seen.events).toEqual([['update', { n: 1 }]]);
});

test('an unreadable packet is a problem and the connection goes on; a refused namespace is a problem and a redial that joins again', async () => {
  const { venue, seen } = await connected();
  venue.send('42/markets,["update",');
  venue.send('42/markets,{"not":"an event"}');
  await until(() => seen.problems.length === 2, 'both problems');
  expect(seen.problems.map((problem) => problem.message)).toEqual([expect.stringContaining('not JSON'), expect.stringContaining('without a name')]);
  venue.send('44/markets,{"message":"Not authorized"}');
  await until(() => seen.joins === 2, 'the join after the redial');
  expect(seen.problems[2]).toMatchObject({ code: 'EXCHANGE_NOT_AVAILABLE', retryable: true, message: expect.stringContaining('Not authorized') });
  expect(seen.drops[0]).toMatchObject({ code: 'NETWORK_ERROR', retryable: true });
  expect(venue.requestUrls).toHaveLength(2);
});

test('closing leaves the namespace first and is not redialled', async () => {
  const { venue, connection } = await connected();
  await connection.close();
  expect(venue.frames).toContain('41/markets,');
  expect(connection.active).toBe(false);
  expect(connection.emit('subscribe', {})).toBe(false);
});
