import { once } from 'node:events';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { guardProcess } from '../src/process-guard.js';
import { apiKey, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

let app: TestApp;
/** Errors that escaped every handler while these tests ran, by kind. */
const escaped: string[] = [];
let unguard: () => void;
beforeAll(async () => {
  // One request a minute: the first upgrade with the key spends it, the next is refused for the budget.
  app = await testApp({ config: { port: 0, host: '127.0.0.1', rateLimit: { requests: 1, windowSeconds: 60 } } });
  await app.server.start();
  unguard = guardProcess(app.server.logger, (kind) => escaped.push(kind));
});
afterAll(async () => {
  unguard();
  await app.stop();
});

/**
 * Sends a raw upgrade request from a real client on 127.0.0.1 and waits for the first bytes of the
 * answer. Also hands back the server's end of the connection, taken from the listener's own
 * `upgrade` event, so a test can wait until the gateway has seen everything the client did.
 */
async function rawUpgrade(query: string): Promise<{ client: Socket; answer: string; serverSide: Duplex }> {
  const serverSide = new Promise<Duplex>((resolve) => app.server.listener.once('upgrade', (_request, socket: Duplex) => resolve(socket)));
  const client = connect(Number(app.server.info.port), '127.0.0.1');
  client.on('error', () => undefined);
  await once(client, 'connect');
  client.write(
    `GET /ws${query} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
  );
  const [chunk] = (await once(client, 'data')) as [Buffer];
  return { client, answer: chunk.toString('utf8'), serverSide: await serverSide };
}

/** Resolves when the socket closes (`once` would reject on the 'error' that comes first). */
function closeOf(socket: Duplex): Promise<void> {
  return new Promise((resolve) => socket.once('close', () => resolve()));
}

describe('a client that resets its socket after a refused /ws upgrade', () => {
  test.each([
    ['no key', '', '401'],
    ['a wrong key', '?apiKey=not-a-key', '401'],
  ])('with %s raises nothing uncaught', async (_case, query, status) => {
    const { client, answer, serverSide } = await rawUpgrade(query);
    expect(answer.startsWith(`HTTP/1.1 ${status} `)).toBe(true);
    const closed = closeOf(serverSide);
    client.resetAndDestroy();
    await closed;
    expect(escaped).toEqual([]);
  });

  test('for a spent budget is told when to come back (Retry-After) and raises nothing uncaught', async () => {
    const first = await rawUpgrade(`?apiKey=${apiKey}`);
    expect(first.answer.startsWith('HTTP/1.1 101 ')).toBe(true);
    first.client.destroy();
    const { client, answer, serverSide } = await rawUpgrade(`?apiKey=${apiKey}`);
    expect(answer.startsWith('HTTP/1.1 429 ')).toBe(true);
    const retryAfter = /\r\nRetry-After: (\d+)\r\n/i.exec(answer)?.[1];
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
      success: false,
      error: { code: 'RATE_LIMIT_EXCEEDED', detail: { retryAfter: Number(retryAfter) } },
    });
    const closed = closeOf(serverSide);
    client.resetAndDestroy();
    await closed;
    expect(escaped).toEqual([]);
  });
});
