import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { toOrderBook } from '@predgate/adapter-polymarket/streams';
import { PolymarketArchive, Recorder } from '../src/index.js';

const fixtures = new URL('./fixtures/', import.meta.url);
const fixture = (name: string) => JSON.parse(readFileSync(new URL(name, fixtures), 'utf8')) as Record<string, unknown>;
const book1 = fixture('ws-book-1.json');
const change1 = fixture('ws-price-change-1.json');
const book2 = fixture('ws-book-2.json');
const change2 = fixture('ws-price-change-2.json');
const yes1 = String(book1.asset_id);
const no1 = String((change1.price_changes as { asset_id: string }[])[1]!.asset_id);
const token2 = String(book2.asset_id);
const market1 = String(book1.market);
const t0 = Number(book1.timestamp);
// The second market's frames were captured on another day: moved next to the first's, so one hour holds both.
book2.timestamp = String(t0 + 2);
change2.timestamp = String(t0 + 12_900);

/** A stand-in for the market channel on 127.0.0.1: answers PING, records what clients send, lets the test push frames. */
async function startVenue() {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  const received: { socket: WebSocket; message: Record<string, unknown> }[] = [];
  const sockets: WebSocket[] = [];
  let pings = 0;
  server.on('connection', (socket) => {
    sockets.push(socket);
    socket.on('message', (data) => {
      const text = data.toString();
      if (text === 'PING') {
        pings += 1;
        socket.send('PONG');
        return;
      }
      received.push({ socket, message: JSON.parse(text) as Record<string, unknown> });
    });
  });
  const { port } = server.address() as { port: number };
  return { server, received, sockets, url: `ws://127.0.0.1:${port}`, pings: () => pings };
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

test('records a replayed market channel over sharded connections, resubscribes after a drop, marks the gap and follows the token list', async () => {
  const venue = await startVenue();
  cleanups.push(() => new Promise<void>((resolve) => venue.server.close(() => resolve())));
  const dir = mkdtempSync(join(tmpdir(), 'archive-recorder-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  // Receive times near the recorded venue times, so both fall in the same hour.
  const started = Date.now();
  const now = () => t0 + 50 + (Date.now() - started);
  const archive = await PolymarketArchive.open({ dir, now, flushIntervalMs: 20 });
  let tokens = [yes1, no1, token2];
  const recorder = new Recorder({
    archive,
    listTokens: async () => tokens,
    tokensPerConnection: 2,
    refreshIntervalMs: 3_600_000,
    channel: { url: venue.url, pingIntervalMs: 20, backoff: { initialMs: 10, maxMs: 20 } },
    now,
  });
  cleanups.push(() => archive.close());
  cleanups.push(() => recorder.stop());
  await recorder.start();

  // Two connections, each sent the initial subscription with custom features on.
  await until(() => venue.received.length >= 2, 'two initial subscriptions');
  const initial = venue.received.map(({ message }) => message);
  expect(initial).toEqual(
    expect.arrayContaining([
      { assets_ids: [yes1, no1], type: 'market', custom_feature_enabled: false },
      { assets_ids: [token2], type: 'market', custom_feature_enabled: false },
    ]),
  );
  const socketFor = (id: string) => venue.received.find(({ message }) => (message.assets_ids as string[]).includes(id))!.socket;
  const first = socketFor(yes1);
  const second = socketFor(token2);

  // The first frame is an array of snapshots (one without event_type, as some relays send it); numbers are strings, optionals "".
  const noBook = {
    market: market1,
    asset_id: no1,
    timestamp: String(t0 + 1),
    hash: 'x',
    bids: [{ price: '0.603', size: '10' }],
    asks: [{ price: '0.7', size: '20' }],
  };
  first.send(JSON.stringify([book1, noBook]));
  second.send(JSON.stringify(book2));
  first.send(JSON.stringify(change1));
  second.send(JSON.stringify(change2));
  first.send(
    JSON.stringify({
      event_type: 'tick_size_change',
      asset_id: yes1,
      market: market1,
      old_tick_size: '0.001',
      new_tick_size: '0.01',
      timestamp: String(t0 + 13_000),
    }),
  );
  first.send(
    JSON.stringify({
      event_type: 'last_trade_price',
      asset_id: yes1,
      market: market1,
      price: '0.301',
      size: '12',
      side: 'BUY',
      fee_rate_bps: '',
      timestamp: String(t0 + 13_001),
      transaction_hash: '0xabc',
    }),
  );
  first.send(
    JSON.stringify({
      event_type: 'best_bid_ask',
      asset_id: yes1,
      market: market1,
      best_bid: '0.301',
      best_ask: '0.397',
      spread: '0.096',
      timestamp: String(t0 + 13_002),
    }),
  );
  const announcement = { event_type: 'new_market', market: '0xnew', assets_ids: ['9'], timestamp: String(t0 + 13_003) };
  first.send(JSON.stringify(announcement));
  second.send(JSON.stringify(announcement));
  first.send('{not json');
  await until(() => recorder.stats().messages >= 9 && venue.pings() > 2, 'the frames and a few PINGs');
  expect(recorder.stats()).toMatchObject({ connections: 2, tokens: 3, unreadable: 1 });

  // The connection drops; the recorder redials and subscribes its tokens again.
  const before = venue.received.length;
  first.terminate();
  await until(() => venue.received.slice(before).some(({ message }) => 'type' in message), 'the resubscription');
  expect(venue.received.slice(before).map(({ message }) => message)).toContainEqual({ assets_ids: [yes1, no1], type: 'market', custom_feature_enabled: false });
  await until(() => recorder.stats().gaps === 1, 'the gap marker');

  // The token list changes: the open sockets are told, without redialling.
  tokens = [yes1, token2, '777'];
  const beforeRefresh = venue.received.length;
  await recorder.refresh();
  await until(() => venue.received.length >= beforeRefresh + 2, 'subscribe and unsubscribe');
  expect(venue.received.slice(beforeRefresh).map(({ message }) => message)).toEqual(
    expect.arrayContaining([
      { operation: 'unsubscribe', assets_ids: [no1] },
      { operation: 'subscribe', assets_ids: ['777'] },
    ]),
  );

  archive.flush();
  // The YES book after the delta: 0.301 joined the bids at 1000 and is now the best bid; tick and last trade as they changed.
  const afterDelta = toOrderBook((await archive.bookAt(yes1, t0 + 12_801))!);
  expect(afterDelta.bids[0]).toEqual({ price: 0.301, size: 1000 });
  expect(afterDelta.bids).toHaveLength((book1.bids as unknown[]).length + 1);
  expect(afterDelta.sourceMetadata).toMatchObject({ tickSize: 0.001 });
  const afterTrade = toOrderBook((await archive.bookAt(yes1, t0 + 13_001))!);
  expect(afterTrade).toMatchObject({ lastTradePrice: 0.301, sourceMetadata: { tickSize: 0.01 } });
  // The NO book got its own entry of the same message: 0.699 joined the asks.
  const no = toOrderBook((await archive.bookAt(no1, t0 + 12_801))!);
  expect(no.asks).toEqual([
    { price: 0.699, size: 1000 },
    { price: 0.7, size: 20 },
  ]);
  // The other market's message removed its ask at 0.94 and set a bid at 0.06 on the first token only.
  const other = toOrderBook((await archive.bookAt(token2, Number(change2.timestamp)))!);
  expect(other.bids).toEqual([
    { price: 0.004, size: 100 },
    { price: 0.001, size: 2200.8 },
  ]);
  // A book asked for after the drop says the connection was down, until a new snapshot arrives.
  const afterDrop = await archive.bookAt(yes1, now());
  expect(afterDrop?.gap).toBeDefined();
}, 20_000);
