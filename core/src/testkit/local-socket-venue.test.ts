import { once } from 'node:events';
import { afterEach, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { LocalSocketVenue, engineIoOpen, startSocketIoVenue, until } from './local-socket-venue.js';
import type { LocalSocketVenueHooks } from './local-socket-venue.js';

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** A venue closed after the test. */
async function start(hooks?: LocalSocketVenueHooks): Promise<LocalSocketVenue> {
  const venue = await LocalSocketVenue.start(hooks);
  cleanup.push(() => venue.close());
  return venue;
}

/** A client connected to `url`, with every frame it receives, closed after the test. */
async function connect(url: string) {
  const client = new WebSocket(url);
  const received: string[] = [];
  client.on('message', (data) => received.push(data.toString()));
  cleanup.push(() => client.terminate());
  await once(client, 'open');
  return { client, received };
}

test('records each connection and every frame in order; send passes a string as it is and JSON-encodes anything else', async () => {
  const venue = await start();
  expect(venue.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
  const { client, received } = await connect(`${venue.url}/feed?key=k`);
  await until(() => venue.sockets.size === 1, 'the connection');
  expect(venue.requestUrls).toEqual(['/feed?key=k']);

  client.send('first');
  client.send('{"second":2}');
  client.send('third');
  await until(() => venue.frames.length === 3, 'three frames');
  expect(venue.frames).toEqual(['first', '{"second":2}', 'third']);

  venue.send('not json');
  venue.send({ channel: 'book', levels: [1] });
  await until(() => received.length === 2, 'two frames at the client');
  expect(received).toEqual(['not json', '{"channel":"book","levels":[1]}']);
});

test('drop() cuts the client off while the venue takes its reconnection', async () => {
  const venue = await start();
  const { client } = await connect(venue.url);
  await until(() => venue.sockets.size === 1, 'the connection');

  const closed = once(client, 'close');
  venue.drop();
  const [code] = await closed;
  // 1006: the connection ended without a close frame, as a network failure ends it.
  expect(code).toBe(1006);
  await until(() => venue.sockets.size === 0, 'the dropped socket forgotten');

  const again = await connect(venue.url);
  again.client.send('back');
  await until(() => venue.frames.includes('back'), 'a frame on the new connection');
  expect(venue.requestUrls).toHaveLength(2);
  expect(venue.sockets.size).toBe(1);
});

test('hooks speak the protocol: onConnection with the request, onFrame with the text and its socket', async () => {
  const keys: string[] = [];
  const venue = await start({
    onConnection(socket, request) {
      keys.push(new URL(request.url ?? '/', 'ws://localhost').searchParams.get('apikey') ?? '');
      socket.send('hello');
    },
    onFrame(text, socket) {
      if (text === 'ping') socket.send('pong');
    },
  });
  const { client, received } = await connect(`${venue.url}/?apikey=read-key`);
  await until(() => received.length === 1, 'the greeting');
  expect(received).toEqual(['hello']);
  expect(keys).toEqual(['read-key']);

  client.send('ping');
  await until(() => received.length === 2, 'the answer');
  expect(received).toEqual(['hello', 'pong']);
  expect(venue.frames).toEqual(['ping']);
});

test('a Socket.IO venue opens each connection, answers a join of its namespace only, and reads and emits events in it', async () => {
  const venue = await startSocketIoVenue('/markets');
  cleanup.push(() => venue.close());
  const { client, received } = await connect(venue.url);
  await until(() => received.length === 1, 'the open packet');
  expect(received).toEqual([engineIoOpen]);

  client.send('40');
  client.send('40/markets,');
  await until(() => received.length === 2, 'the join answer');
  expect(received[1]).toBe('40/markets,{"sid":"socket-1"}');
  expect(venue.joins()).toBe(1);

  client.send('42/markets,["subscribe",{"slug":"a"}]');
  client.send('42["subscribe",{"slug":"default namespace"}]');
  client.send('42/markets,["other",1]');
  client.send('42/markets,["subscribe",{"slug":"b"}]');
  await until(() => venue.frames.length === 6, 'the events');
  expect(venue.emitted('subscribe')).toEqual([{ slug: 'a' }, { slug: 'b' }]);

  venue.emit('book', { bids: [] });
  await until(() => received.length === 3, 'the emitted event');
  expect(received[2]).toBe('42/markets,["book",{"bids":[]}]');
});

test('until resolves once its condition holds and throws naming it after its time', async () => {
  let ready = false;
  setTimeout(() => (ready = true), 20);
  await until(() => ready, 'ready');

  const started = Date.now();
  await expect(until(() => false, 'never', 30)).rejects.toThrow('never not met in 30 ms');
  expect(Date.now() - started).toBeGreaterThanOrEqual(30);
});
