import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolymarketArchive, Recorder } from '@predgate/archive';
import { catalogEntry } from '@predgate/catalog';
import type { Event } from '@predgate/core';
import { until } from '@predgate/core/testkit';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { archiveDir } from '../src/archive/archive-service.js';
import { loadConfig } from '../src/config.js';
import { apiKey, mockManifest, now, testApp } from './helpers.js';
import type { TestApp } from './helpers.js';

const fixtures = new URL('../../archive/test/fixtures/', import.meta.url);
const book = JSON.parse(readFileSync(new URL('ws-book-1.json', fixtures), 'utf8')) as {
  asset_id: string;
  market: string;
  timestamp: string;
  bids: Level[];
  asks: Level[];
};
const change = JSON.parse(readFileSync(new URL('ws-price-change-1.json', fixtures), 'utf8')) as {
  timestamp: string;
  price_changes: { asset_id: string; price: string; size: string; side: string }[];
};
interface Level {
  price: string;
  size: string;
}
const yes = book.asset_id;
const no = change.price_changes[1]!.asset_id;
const t0 = Number(book.timestamp);

/** The traffic the replayed venue sends, in order: snapshots, then deltas and trades a few ms apart. */
function session(): Record<string, unknown>[] {
  const noBook = {
    event_type: 'book',
    market: book.market,
    asset_id: no,
    timestamp: String(t0 + 1),
    bids: [{ price: '0.6', size: '30' }],
    asks: [{ price: '0.7', size: '20' }],
  };
  const frames: Record<string, unknown>[] = [{ ...book, event_type: 'book' }, noBook, change];
  for (let step = 1; step <= 20; step += 1) {
    const price = (0.3 + step / 1000).toFixed(3);
    frames.push({
      event_type: 'price_change',
      market: book.market,
      timestamp: String(t0 + 20_000 + step * 10),
      price_changes: [
        { asset_id: yes, price, size: String(step * 3), side: 'BUY', hash: 'h', best_bid: price, best_ask: '0.397' },
        {
          asset_id: no,
          price: (1 - Number(price)).toFixed(3),
          size: step % 4 === 0 ? '0' : String(step),
          side: 'SELL',
          hash: 'h',
          best_bid: '0.6',
          best_ask: '0.69',
        },
      ],
    });
    if (step % 5 === 0)
      frames.push({
        event_type: 'last_trade_price',
        market: book.market,
        asset_id: yes,
        price,
        size: '1',
        side: 'SELL',
        fee_rate_bps: '0',
        timestamp: String(t0 + 20_000 + step * 10 + 1),
        transaction_hash: '0x1',
      });
  }
  return frames;
}

/** The expected books, kept apart from the archive: a price→size map per side, replaced by snapshots, set by deltas. */
function expectedBooks(frames: Record<string, unknown>[], asset: string): { at: number; bids: number[][]; asks: number[][]; lastTradePrice?: number }[] {
  const bids = new Map<number, number>();
  const asks = new Map<number, number>();
  let lastTradePrice: number | undefined;
  const out: { at: number; bids: number[][]; asks: number[][]; lastTradePrice?: number }[] = [];
  const view = (at: number) => ({
    at,
    bids: [...bids].sort((a, b) => b[0] - a[0]),
    asks: [...asks].sort((a, b) => a[0] - b[0]),
    ...(lastTradePrice !== undefined ? { lastTradePrice } : {}),
  });
  for (const frame of frames) {
    const at = Number(frame.timestamp);
    let touched = false;
    if (frame.event_type === 'book' && frame.asset_id === asset) {
      bids.clear();
      asks.clear();
      for (const level of frame.bids as Level[]) bids.set(Number(level.price), Number(level.size));
      for (const level of frame.asks as Level[]) asks.set(Number(level.price), Number(level.size));
      if (frame.last_trade_price) lastTradePrice = Number(frame.last_trade_price);
      touched = true;
    } else if (frame.event_type === 'price_change') {
      for (const entry of frame.price_changes as { asset_id: string; price: string; size: string; side: string }[]) {
        if (entry.asset_id !== asset) continue;
        const side = entry.side === 'BUY' ? bids : asks;
        if (Number(entry.size) === 0) side.delete(Number(entry.price));
        else side.set(Number(entry.price), Number(entry.size));
        touched = true;
      }
    } else if (frame.event_type === 'last_trade_price' && frame.asset_id === asset) {
      lastTradePrice = Number(frame.price);
      touched = true;
    }
    if (touched) out.push(view(at));
  }
  return out;
}

const levels = (side: { price: number; size: number }[]) => side.map(({ price, size }) => [price, size]);
const conditionId = book.market;
const marketId = '559652';
let app: TestApp;
const frames = session();

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'predgate-archive-'));
  const config = loadConfig({ env: { PREDGATE_DATA_DIR: dataDir, PREDGATE_API_KEYS: apiKey } });

  // A recorder session against a venue replayed on 127.0.0.1, its hour then closed and rolled.
  const venue = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => venue.once('listening', resolve));
  const subscribed = new Promise<WebSocket>((resolve) => venue.on('connection', (socket) => socket.once('message', () => resolve(socket))));
  let clock = t0 + 100;
  const archive = await PolymarketArchive.open({ dir: archiveDir(config), now: () => clock, flushIntervalMs: 10, checkpointEvery: 4 });
  const recorder = new Recorder({
    archive,
    listTokens: async () => [yes, no],
    channel: { url: `ws://127.0.0.1:${(venue.address() as { port: number }).port}` },
    now: () => clock,
  });
  await recorder.start();
  const socket = await subscribed;
  for (const frame of frames) socket.send(JSON.stringify(frame));
  await until(() => recorder.stats().messages >= frames.length, 'every frame recorded');
  clock += 3_600_000;
  await recorder.stop();
  await archive.rollDue();
  await archive.close();
  await new Promise((resolve) => venue.close(resolve));

  app = await testApp({
    config,
    manifest: { venues: [...mockManifest.venues, { id: 'polymarket', package: '@predgate/adapter-polymarket', version: '^0.1.0', config: {} }] },
  });
  // The catalog knows the market, so a market id with outcome yes/no finds its tokens.
  const outcome = (outcomeId: string, label: string) => ({ outcomeId, marketId, label, price: 0.5 });
  const event: Event = {
    id: '30829',
    title: 'Archive test event',
    description: '',
    slug: 'archive-test',
    volume24h: 1,
    url: 'https://polymarket.com/event/archive-test',
    markets: [
      {
        marketId,
        title: 'Archive test market',
        description: '',
        outcomes: [outcome(yes, 'Yes'), outcome(no, 'No')],
        yes: outcome(yes, 'Yes'),
        no: outcome(no, 'No'),
        volume24h: 1,
        liquidity: 1,
        url: 'https://polymarket.com/event/archive-test',
        contractAddress: conditionId,
        status: 'active',
        sourceMetadata: { negRisk: false },
      },
    ],
  };
  const writer = await app.catalog.store.beginSweep('polymarket', 'sweep-1');
  await writer.add([catalogEntry('polymarket', event)]);
  await writer.commit({ venue: 'polymarket', sweepId: 'sweep-1', startedAt: 1, finishedAt: 2, events: 1, markets: 1, outcomes: 2 });
}, 30_000);

afterAll(async () => {
  await app?.stop();
});

test('fetchOrderBook with since returns the full book at or before that moment, by token id over GET', async () => {
  const expected = expectedBooks(frames, yes);
  for (const moment of [expected[0]!, expected[1]!, expected[7]!, expected.at(-1)!]) {
    const response = await app.call({ method: 'GET', url: `/api/polymarket/fetchOrderBook?id=${yes}&since=${moment.at + 5}` });
    expect(response.statusCode).toBe(200);
    const body = JSON.parse(response.payload) as {
      data: {
        bids: { price: number; size: number }[];
        asks: { price: number; size: number }[];
        timestamp: number;
        datetime: string;
        isNegRisk?: boolean;
        lastTradePrice?: number;
      };
    };
    expect({
      at: body.data.timestamp,
      bids: levels(body.data.bids),
      asks: levels(body.data.asks),
      ...(body.data.lastTradePrice !== undefined ? { lastTradePrice: body.data.lastTradePrice } : {}),
    }).toEqual(moment);
    expect(body.data.datetime).toBe(new Date(moment.at).toISOString());
    expect(body.data.isNegRisk).toBe(false);
    // Served from the archive, as old as the book answered.
    expect(response.headers).toMatchObject({ 'predgate-served-from': 'archive', 'predgate-data-age': String(Math.floor((now - moment.at) / 1000)) });
  }
});

test('since+until over POST in the pmxt form, by market id and outcome, returns every book of the range in time order', async () => {
  const expected = expectedBooks(frames, no);
  const since = expected[1]!.at;
  const until = expected.at(-3)!.at;
  const response = await app.call({
    method: 'POST',
    url: '/api/polymarket/fetchOrderBook',
    payload: { args: [marketId, null, { since, until, outcome: 'no' }] },
  });
  expect(response.statusCode).toBe(200);
  const books = (
    JSON.parse(response.payload) as { data: { bids: { price: number; size: number }[]; asks: { price: number; size: number }[]; timestamp: number }[] }
  ).data;
  expect(books.map((entry) => ({ at: entry.timestamp, bids: levels(entry.bids), asks: levels(entry.asks) }))).toEqual(
    expected.filter((moment) => moment.at >= since && moment.at <= until).map(({ at, bids, asks }) => ({ at, bids, asks })),
  );
  const limited = await app.call({ method: 'POST', url: '/api/polymarket/fetchOrderBook', payload: { args: [no, null, { since, until, limit: 3 }] } });
  expect((JSON.parse(limited.payload) as { data: unknown[] }).data).toHaveLength(3);
});

test('a moment before anything was recorded is NOT_FOUND; other venues refuse since/until naming the archived venues', async () => {
  const early = await app.call({ method: 'GET', url: `/api/polymarket/fetchOrderBook?id=${yes}&since=${t0 - 10 * 3_600_000}` });
  expect(early.statusCode).toBe(404);
  expect(JSON.parse(early.payload)).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  const mock = await app.call({ method: 'POST', url: '/api/mock/fetchOrderBook', payload: { args: ['x', null, { since: t0 }] } });
  expect(JSON.parse(mock.payload)).toMatchObject({ success: false, error: { code: 'NOT_SUPPORTED' } });
  expect(mock.payload).toContain('polymarket');
});

test('the hourly files are listed with their facts and served whole or by range, to callers with a key only', async () => {
  const list = await app.call({ method: 'GET', url: '/archive/files?limit=10' });
  const body = JSON.parse(list.payload) as { data: { name: string; hour: string; size: number; rows: number; sha256: string }[]; meta: { total: number } };
  const name = `polymarket_orderbook_${new Date(t0).toISOString().slice(0, 13)}.parquet`;
  expect(body.data).toEqual([
    {
      name,
      hour: `${new Date(t0).toISOString().slice(0, 13)}:00:00.000Z`,
      size: expect.any(Number),
      rows: expect.any(Number),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    },
  ]);
  expect(body.meta.total).toBe(1);
  // Paging outside the route's declared bounds is refused, naming the parameter; so is a name no hourly file can have.
  for (const url of [
    '/archive/files?limit=0',
    '/archive/files?limit=1001',
    '/archive/files?offset=-1',
    '/archive/files?limit=ten',
    '/archive/files/constructor',
  ]) {
    const refused = await app.call({ method: 'GET', url });
    expect(refused.statusCode, url).toBe(400);
    expect(JSON.parse(refused.payload), url).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
  }
  const whole = await app.call({ method: 'GET', url: `/archive/files/${name}` });
  expect(whole.statusCode).toBe(200);
  expect(whole.rawPayload.length).toBe(body.data[0]!.size);
  expect(whole.rawPayload.subarray(0, 4).toString()).toBe('PAR1');
  const part = await app.call({ method: 'GET', url: `/archive/files/${name}`, headers: { range: 'bytes=-4' } });
  expect(part.statusCode).toBe(206);
  expect(part.headers['content-range']).toBe(`bytes ${body.data[0]!.size - 4}-${body.data[0]!.size - 1}/${body.data[0]!.size}`);
  expect(part.rawPayload.toString()).toBe('PAR1');
  const anonymous = await app.server.inject({ method: 'GET', url: `/archive/files/${name}` });
  expect(anonymous.statusCode).toBe(401);
  expect((await app.call({ method: 'GET', url: '/archive/files/../../keys.json' })).statusCode).toBe(404);
});

test('archive file Range and If-Range follow RFC 9110: unknown units and malformed ranges are ignored, a stale If-Range gets the whole file', async () => {
  const [file] = (JSON.parse((await app.call({ method: 'GET', url: '/archive/files' })).payload) as { data: { name: string; size: number; sha256: string }[] })
    .data;
  const url = `/archive/files/${file!.name}`;
  const get = (headers: Record<string, string>) => app.call({ method: 'GET', url, headers });
  const whole = await get({});
  expect(whole.headers.etag).toBe(`"${file!.sha256}"`);
  const lastModified = whole.headers['last-modified'] as string;
  expect(new Date(lastModified).getTime()).toBeGreaterThan(0);

  for (const range of ['items=0-3', 'bytes=abc', 'bytes=5-3', 'bytes=0-1,4-5', 'bytes=', 'bytes=--4', ' = 0-3']) {
    const ignored = await get({ range });
    expect({ range, status: ignored.statusCode, length: ignored.rawPayload.length }).toEqual({ range, status: 200, length: file!.size });
    expect(ignored.headers['content-range']).toBeUndefined();
  }
  for (const ifRange of ['"another-tag"', `W/"${file!.sha256}"`, 'Thu, 01 Jan 1970 00:00:00 GMT']) {
    const stale = await get({ range: 'bytes=0-3', 'if-range': ifRange });
    expect({ ifRange, status: stale.statusCode, length: stale.rawPayload.length }).toEqual({ ifRange, status: 200, length: file!.size });
  }
  for (const ifRange of [`"${file!.sha256}"`, lastModified]) {
    const fresh = await get({ range: 'Bytes=0-3', 'if-range': ifRange });
    expect({ ifRange, status: fresh.statusCode }).toEqual({ ifRange, status: 206 });
    expect(fresh.headers['content-range']).toBe(`bytes 0-3/${file!.size}`);
    expect(fresh.rawPayload.toString()).toBe('PAR1');
  }
  for (const range of [`bytes=${file!.size}-`, `bytes=${file!.size + 10}-${file!.size + 20}`, 'bytes=-0']) {
    const unsatisfiable = await get({ range });
    expect({ range, status: unsatisfiable.statusCode }).toEqual({ range, status: 416 });
    expect(unsatisfiable.headers['content-range']).toBe(`bytes */${file!.size}`);
  }
});
