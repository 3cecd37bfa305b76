import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { WebSocketServer } from 'ws';
import { PredgateError } from '../errors.js';
import { RedialingSocket } from './redialing-socket.js';
import type { SocketOutage } from './redialing-socket.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function venue(): Promise<{ url: string; server: WebSocketServer }> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function socketTo(url: string, events: string[], wanted = () => true, onRefused?: (status: number) => PredgateError | undefined) {
  const socket = new RedialingSocket({
    venue: 'v',
    dial: () => ({ url }),
    pingIntervalMs: 10_000,
    backoff: { initialMs: 5, maxMs: 10 },
    wanted,
    onOpen: () => events.push('open'),
    onMessage: (text) => events.push(`message ${text}`),
    onDown: () => events.push('down'),
    onDrop: (error) => events.push(`drop ${error.code}`),
    ...(onRefused ? { onRefused } : {}),
  });
  closers.push(() => socket.close());
  return socket;
}

test('a dropped connection is told as a retryable NETWORK_ERROR and dialled again while wanted; close() ends it for good', async () => {
  const { url, server } = await venue();
  server.on('connection', (ws) => ws.send('hello'));
  const events: string[] = [];
  const socket = socketTo(url, events);
  socket.connect();
  await until(() => events.includes('message hello'));
  for (const client of server.clients) client.terminate();
  await until(() => events.filter((event) => event === 'open').length === 2);
  expect(events.slice(0, 5)).toEqual(['open', 'message hello', 'down', 'drop NETWORK_ERROR', 'open']);
  expect(socket.send('ping')).toBe(true);
  await socket.close();
  expect(socket.active).toBe(false);
  expect(socket.send('ping')).toBe(false);
  const opened = events.filter((event) => event === 'open').length;
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(events.filter((event) => event === 'open')).toHaveLength(opened);
});

test('a drop is not dialled again once nothing is wanted', async () => {
  const { url, server } = await venue();
  const events: string[] = [];
  const socket = socketTo(url, events, () => false);
  socket.connect();
  await until(() => socket.isOpen);
  for (const client of server.clients) client.terminate();
  await until(() => events.includes('drop NETWORK_ERROR'));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(events.filter((event) => event === 'open')).toHaveLength(1);
});

test('a refused handshake the stream recognises stops the socket with its error, without a redial', async () => {
  const http = createServer((_request, response) => response.writeHead(401).end());
  http.on('upgrade', (_request, raw) => raw.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n'));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => http.close(() => resolve())));
  const events: string[] = [];
  const socket = socketTo(
    `ws://127.0.0.1:${(http.address() as AddressInfo).port}`,
    events,
    () => true,
    (status) => (status === 401 ? new PredgateError('AUTHENTICATION_ERROR', 'refused') : undefined),
  );
  socket.connect();
  await until(() => events.includes('drop AUTHENTICATION_ERROR'));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(events).toEqual(['drop AUTHENTICATION_ERROR', 'down']);
});

test('an outage runs from the first drop to the next open across refused redials, is reported once, and a close on purpose is none', async () => {
  let clock = 0;
  let refusals = 0;
  const server = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    // While refusing, each handshake is answered 503 one clock step later.
    verifyClient: (_info, accept) => {
      if (refusals === 0 || refusals > 2) return accept(true);
      refusals += 1;
      clock += 10;
      accept(false, 503);
    },
  });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const outages: SocketOutage[] = [];
  const opens: number[] = [];
  const socket = new RedialingSocket({
    venue: 'v',
    dial: () => ({ url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    pingIntervalMs: 10_000,
    backoff: { initialMs: 5, maxMs: 10 },
    now: () => clock,
    wanted: () => true,
    onOpen: () => opens.push(clock),
    onResumed: (outage) => outages.push(outage),
    onMessage: () => undefined,
    onDown: () => undefined,
    onDrop: () => undefined,
  });
  closers.push(() => socket.close());
  socket.connect();
  await until(() => socket.isOpen);
  expect(outages).toEqual([]);

  clock = 100;
  refusals = 1;
  for (const client of server.clients) client.terminate();
  await until(() => outages.length > 0);
  expect(outages).toEqual([{ from: 100, to: 120, reason: expect.stringMatching(/^connection closed \(1006/) as string }]);
  expect(opens).toEqual([0, 120]);

  await socket.close();
  socket.connect();
  await until(() => opens.length === 3);
  expect(outages).toHaveLength(1);
});
