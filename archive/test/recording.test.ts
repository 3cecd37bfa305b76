import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { PolymarketArchive, RecordingProcess } from '../src/index.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const token = '1001';
const market = `0x${'7a'.repeat(32)}`;

async function until<T>(probe: () => T | Promise<T>, what: string): Promise<NonNullable<T>> {
  for (let attempt = 0; attempt < 2_000; attempt += 1) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
}

test('recording runs in a child process: the gateway process reads the open hour through it, and a kill -9 is reported and restarted without losing a flushed row', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'archive-recording-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const venue = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  cleanups.push(() => new Promise((resolve) => venue.close(resolve)));
  await new Promise((resolve) => venue.once('listening', resolve));
  let subscribed: WebSocket | undefined;
  venue.on('connection', (socket) => socket.on('message', (data) => (data.toString() === 'PING' ? socket.send('PONG') : (subscribed = socket))));

  const warnings: string[] = [];
  const recording = new RecordingProcess({
    archive: { dir, flushIntervalMs: 10 },
    recorder: { channel: { url: `ws://127.0.0.1:${(venue.address() as { port: number }).port}` } },
    listTokens: async () => [token],
    logger: { warn: (_object, message) => warnings.push(message), info: () => undefined },
    restartDelayMs: 10,
    statsIntervalMs: 10,
  });
  cleanups.push(() => recording.stop());
  const archive = await PolymarketArchive.open({ dir, mode: 'read', openHours: recording });
  cleanups.push(() => archive.close());

  const firstPid = new Promise<number>((resolve) => recording.once('started', resolve));
  await recording.start();
  const pid = await firstPid;
  // The sockets, the parsing and the journal live in another process, which counts the frames.
  expect(pid).not.toBe(process.pid);
  expect(recording.stats().pid).toBe(pid);

  const socket = await until(() => subscribed, 'the subscription');
  const at = Date.now();
  socket.send(JSON.stringify({ event_type: 'book', market, asset_id: token, timestamp: String(at), bids: [{ price: '0.40', size: '10' }], asks: [] }));
  const expected = new Map<string, string>([['0.40', '10']]);
  const frames = 300;
  for (let index = 1; index <= frames; index += 1) {
    const price = (0.01 * (1 + (index % 30))).toFixed(2);
    const size = index % 7 === 0 ? '0' : String(index);
    socket.send(
      JSON.stringify({ event_type: 'price_change', market, timestamp: String(at + index), price_changes: [{ asset_id: token, price, size, side: 'BUY' }] }),
    );
    if (size === '0') expected.delete(price);
    else expected.set(price, size);
  }
  await until(() => recording.stats().messages >= frames + 1, 'every frame counted by the recording process');
  const levels = (book: { bids: { price: string; size: string }[] } | undefined) => new Map(book?.bids.map((level) => [level.price, level.size]));

  // Read from this process: the open hour comes from the child's journal, which is flushed before it answers.
  const acknowledged = await until(() => archive.bookAt(token, at + frames), 'the book of the open hour');
  expect(levels(acknowledged)).toEqual(expected);
  expect(acknowledged.gap).toBeUndefined();

  const crashed = new Promise((resolve) => recording.once('crashed', resolve));
  const restarted = new Promise<number>((resolve) => recording.once('started', resolve));
  process.kill(pid, 'SIGKILL');
  expect(await crashed).toEqual({ code: null, signal: 'SIGKILL' });
  expect(warnings.some((message) => message.includes('recording process ended unasked'))).toBe(true);
  const secondPid = await restarted;
  expect(secondPid).not.toBe(pid);
  expect(recording.stats()).toMatchObject({ pid: secondPid, restarts: 1 });

  // Every row the first child had acknowledged is still there; the time no process recorded is a gap of the books after it.
  expect(levels(await archive.bookAt(token, at + frames))).toEqual(expected);
  const afterRestart = await archive.bookAt(token, Date.now());
  expect(levels(afterRestart)).toEqual(expected);
  expect(afterRestart?.gap).toBeDefined();
});
