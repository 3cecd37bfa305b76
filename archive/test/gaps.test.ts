import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toOrderBook } from '@predgate/adapter-polymarket/streams';
import { afterEach, expect, test } from 'vitest';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { PolymarketArchive } from '../src/index.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const tokens = ['1001', '1002'] as const;
const market = `0x${'5e'.repeat(32)}`;
/**
 * Virtual time, which the test moves and the recording child follows (see
 * gap-recorder.ts): the script below crosses the hour edge in its fourth part.
 */
const hourEdge = Date.UTC(2026, 10, 24, 13);
let clock = hourEdge - 900;
const now = () => clock;

/** What the test itself knows: every message delivered per token, and every interval a token's feed was down. */
interface Delivered {
  at: number;
  kind: 'book' | 'change';
  levels?: Record<string, string>;
  price?: string;
  size?: string;
}
const delivered = new Map<string, Delivered[]>(tokens.map((token) => [token, []]));
const outages = new Map<string, { from: number; to: number }[]>(tokens.map((token) => [token, []]));

/** The venue: subscriptions numbered as they come, and connections held at the handshake while `holding` (so an outage lasts until the test says). */
function startVenue() {
  let subscriptions = 0;
  const held: (() => void)[] = [];
  const venue = {
    holding: false,
    /** Called when a connection is held at its handshake. */
    heldOne: undefined as (() => void) | undefined,
    release() {
      venue.holding = false;
      for (const accept of held.splice(0)) accept();
    },
    server: new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      verifyClient: (_info: unknown, accept: (result: boolean) => void) => {
        if (!venue.holding) return accept(true);
        held.push(() => accept(true));
        venue.heldOne?.();
      },
    }),
    subscribed: new Map<string, { socket: WebSocket; at: number; number: number }>(),
    url: () => `ws://127.0.0.1:${(venue.server.address() as { port: number }).port}`,
  };
  venue.server.on('connection', (socket) => {
    socket.on('message', (data) => {
      const text = data.toString();
      if (text === 'PING') return void socket.send('PONG');
      const message = JSON.parse(text) as { assets_ids?: string[] };
      for (const id of message.assets_ids ?? []) venue.subscribed.set(id, { socket, at: now(), number: (subscriptions += 1) });
    });
  });
  return venue;
}

/** A recording child and how many rows the test sent it. */
interface RecorderChild {
  process: ChildProcess;
  sent: number;
  /** Moves the shared clock on by `ms` once the child has recorded every row sent; resolves when it has, and flushed. */
  advance(ms: number): Promise<void>;
}

function spawnRecorder(dir: string, url: string): Promise<RecorderChild> {
  const child = spawn(process.execPath, ['--conditions=predgate-source', '--import', 'tsx', join(import.meta.dirname, 'gap-recorder.ts'), dir, url], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const exited = new Promise<never>((_resolve, reject) => child.once('exit', (code) => reject(new Error(`the recorder exited (${code})`))));
  exited.catch(() => undefined);
  const recorder: RecorderChild = {
    process: child,
    sent: 0,
    advance: (ms) => {
      clock += ms;
      const answer = `at ${clock}`;
      const answered = new Promise<void>((resolve) => {
        const listener = (line: string) => {
          if (line !== answer) return;
          lines.off('line', listener);
          resolve();
        };
        lines.on('line', listener);
      });
      child.stdin!.write(`${clock} ${recorder.sent}\n`);
      return Promise.race([answered, exited]);
    },
  };
  return new Promise((resolve, reject) => {
    lines.on('line', (line) => {
      if (line === 'loaded') child.stdin!.write(`${clock}\n`);
      if (line === 'recording') resolve(recorder);
    });
    exited.catch(reject);
  });
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 3_000; attempt += 1) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`gave up waiting for ${what}`);
}

test('an independent replay across an hour edge, a reconnect and a kill -9 finds no book with a wrong gap flag', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'archive-gaps-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const venue = startVenue();
  await new Promise((resolve) => venue.server.once('listening', resolve));
  cleanups.push(() => new Promise<void>((resolve) => venue.server.close(() => resolve())));
  let step = 0;

  let child = await spawnRecorder(dir, venue.url());
  cleanups.push(() => child.process.kill('SIGKILL'));
  const send = (token: string, kind: 'book' | 'change') => {
    const subscription = venue.subscribed.get(token)!;
    const at = now();
    step += 1;
    child.sent += 1;
    const price = (0.3 + (step % 20) / 100).toFixed(2);
    const size = String(10 + step);
    if (kind === 'book') {
      const bids = [
        { price: '0.20', size: String(step) },
        { price, size },
      ];
      subscription.socket.send(
        JSON.stringify({ event_type: 'book', market, asset_id: token, timestamp: String(at), bids, asks: [{ price: '0.90', size: '5' }] }),
      );
      delivered.get(token)!.push({ at, kind, levels: Object.fromEntries(bids.map((level) => [level.price, level.size])) });
    } else {
      subscription.socket.send(
        JSON.stringify({ event_type: 'price_change', market, timestamp: String(at), price_changes: [{ asset_id: token, price, size, side: 'BUY' }] }),
      );
      delivered.get(token)!.push({ at, kind, price, size });
    }
  };
  const subscription = (token: string) => venue.subscribed.get(token)?.number ?? 0;
  const resubscribedAfter = (token: string, number: number) => until(() => subscription(token) > number, `token ${token} subscribed again`);
  // The test's messages need distinct, ordered times: the clock moves on after each.
  const changes = async (count: number) => {
    for (let index = 0; index < count; index += 1) {
      for (const token of tokens) send(token, 'change');
      await child.advance(40);
    }
  };

  await until(() => tokens.every((token) => venue.subscribed.has(token)), 'both subscriptions');
  for (const token of tokens) send(token, 'book');
  await changes(6);

  // Token 1001's connection drops (its shard alone); its redial is held at the handshake while the clock moves on
  // 100 ms, then let through; the venue sends a fresh book.
  await child.advance(200);
  const dropped = now();
  const before = subscription('1001');
  venue.holding = true;
  const redialled = new Promise<void>((resolve) => (venue.heldOne = resolve));
  venue.subscribed.get('1001')!.socket.terminate();
  await redialled;
  await child.advance(100);
  venue.release();
  await resubscribedAfter('1001', before);
  outages.get('1001')!.push({ from: dropped, to: venue.subscribed.get('1001')!.at });
  await changes(3); // 1001's changes land on its stale book until its fresh one
  await child.advance(200);
  send('1001', 'book');
  await changes(10); // across the hour edge

  // kill -9 once everything sent is flushed, down for a while, restarted on the same folder.
  await child.advance(200);
  const killed = now();
  const killedChild = child.process;
  const killedExit = new Promise((resolve) => killedChild.once('exit', resolve));
  killedChild.kill('SIGKILL');
  await killedExit;
  clock += 300;
  const subscribedBefore = tokens.map(subscription);
  child = await spawnRecorder(dir, venue.url());
  for (const [index, token] of tokens.entries()) {
    await resubscribedAfter(token, subscribedBefore[index]!);
    outages.get(token)!.push({ from: killed, to: venue.subscribed.get(token)!.at });
  }
  await child.advance(200);
  await changes(2);
  await child.advance(200);
  for (const token of tokens) send(token, 'book');
  await changes(6);
  await child.advance(200);
  // Stopped for good: the queries below stay before this moment.
  const end = now();
  const stopped = new Promise((resolve) => child.process.once('exit', resolve));
  child.process.kill('SIGTERM');
  await stopped;

  // A fresh process reads what was recorded; every hour is rolled into its file first.
  const archive = await PolymarketArchive.open({ dir, now: () => end + 2 * 3_600_000, rollInChildProcess: false });
  cleanups.push(() => archive.close());
  await archive.rollDue();
  expect(archive.listFiles().map((file) => file.hour)).toEqual([new Date(hourEdge - 3_600_000).toISOString(), new Date(hourEdge).toISOString()]);

  const boundaries = [...outages.values()].flat().flatMap((outage) => [outage.from, outage.to]);
  const nearBoundary = (time: number) => boundaries.some((boundary) => Math.abs(boundary - time) < 150);
  const expected = (token: string, time: number) => {
    const messages = delivered.get(token)!.filter((message) => message.at <= time);
    const lastBook = messages.findLast((message) => message.kind === 'book');
    if (!lastBook) return undefined;
    const levels = { ...lastBook.levels };
    for (const message of messages.slice(messages.indexOf(lastBook) + 1)) levels[message.price!] = message.size!;
    const gapped = outages.get(token)!.some((outage) => outage.to > lastBook.at && outage.from < time);
    return { levels, gapped };
  };
  const levelsText = (levels: [string, string][]) => JSON.stringify(levels.sort(([a], [b]) => Number(a) - Number(b)));
  const levelsOf = (book: ReturnType<typeof toOrderBook>) => levelsText(book.bids.map((level) => [level.price.toFixed(2), String(level.size)]));

  let wrongFlags = 0;
  let wrongBooks = 0;
  const flags = { gapped: 0, complete: 0 };
  for (const token of tokens) {
    for (let time = delivered.get(token)![0]!.at + 5; time < end; time += 37) {
      if (nearBoundary(time)) continue;
      const want = expected(token, time)!;
      const book = toOrderBook((await archive.bookAt(token, time))!);
      const gapped = book.sourceMetadata?.gap !== undefined;
      flags[gapped ? 'gapped' : 'complete'] += 1;
      if (gapped !== want.gapped) wrongFlags += 1;
      if (levelsOf(book) !== levelsText(Object.entries(want.levels).map(([price, size]) => [Number(price).toFixed(2), size]))) wrongBooks += 1;
    }
    // A range: the book at its start, then one per change; each flagged by exactly the outages it covers.
    const since = delivered.get(token)![1]!.at + 5;
    const range = await archive.booksBetween(token, { since, until: end, limit: 1000 });
    expect(range.length).toBeGreaterThan(20);
    for (const snapshot of range.slice(1)) {
      const want = expected(token, snapshot.timestamp)!;
      if ((snapshot.gap !== undefined) !== want.gapped) wrongFlags += 1;
    }
  }
  expect({ wrongFlags, wrongBooks }).toEqual({ wrongFlags: 0, wrongBooks: 0 });
  // The replay saw both kinds of book, so a flag that is always set or never set would have failed it.
  expect(flags.gapped).toBeGreaterThan(10);
  expect(flags.complete).toBeGreaterThan(10);
}, 120_000);
