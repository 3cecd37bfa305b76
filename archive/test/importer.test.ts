import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, expect, test } from 'vitest';
import { toOrderBook } from '@predgate/adapter-polymarket/streams';
import type { MarketRow } from '@predgate/adapter-polymarket/streams';
import { hoursIn, inFileOrder, stageHour } from '../src/import-staging.js';
import { PolymarketArchive } from '../src/index.js';
import { queryDuckDb } from './duckdb-query.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'archive-import-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const hour = Date.UTC(2026, 10, 23, 14);
const asset = '21742633143463906290569050155826241533067272736897614950488156847949938836455';
const market = `0x${'c3'.repeat(32)}`;

/**
 * A file in pmxt's v2 layout written straight with DuckDB SQL (not with the
 * archive's writer): TIMESTAMP times, DOUBLE decimals, levels as JSON text.
 */
async function writePmxtFile(path: string, rows: string[]): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(`CREATE TABLE t (timestamp_received TIMESTAMP, timestamp TIMESTAMP, market VARCHAR, event_type VARCHAR, asset_id VARCHAR, bids VARCHAR, asks VARCHAR,
    price DOUBLE, size DOUBLE, side VARCHAR, best_bid DOUBLE, best_ask DOUBLE, fee_rate_bps DOUBLE, transaction_hash VARCHAR, old_tick_size DOUBLE, new_tick_size DOUBLE)`);
  await connection.run(`INSERT INTO t VALUES ${rows.join(',\n')}`);
  await connection.run(`COPY t TO '${path}' (FORMAT parquet, COMPRESSION zstd)`);
  connection.closeSync();
  instance.closeSync();
}

const at = (ms: number) => `make_timestamp(${(hour + ms) * 1000})`;
const pmxtRows = [
  `(${at(1000)}, ${at(990)}, '${market}', 'book', '${asset}', '[["0.40","100"],["0.45","20"]]', '[["0.55","30"]]', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
  `(${at(2000)}, ${at(1990)}, '${market}', 'price_change', '${asset}', NULL, NULL, 0.46, 5, 'BUY', 0.46, 0.55, NULL, NULL, NULL, NULL)`,
  `(${at(3000)}, ${at(2990)}, '${market}', 'price_change', '${asset}', NULL, NULL, 0.55, 0, 'SELL', 0.46, 1, NULL, NULL, NULL, NULL)`,
  `(${at(4000)}, ${at(3990)}, '${market}', 'last_trade_price', '${asset}', NULL, NULL, 0.46, 2, 'BUY', NULL, NULL, 0, '0xfeed', NULL, NULL)`,
  `(${at(5000)}, ${at(4990)}, '${market}', 'tick_size_change', '${asset}', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0.01, 0.001)`,
];

test("imports pmxt's v2 hourly files so since/until answer from them, and importing twice counts nothing twice", async () => {
  const source = join(tempDir(), 'polymarket_orderbook_2026-11-23T14.parquet');
  await writePmxtFile(source, pmxtRows);
  const archive = await PolymarketArchive.open({ dir: tempDir(), now: () => hour + 5 * 3_600_000 });
  expect(await archive.importFiles([source])).toEqual({ files: 1, hours: ['2026-11-23T14'], rows: 5, duplicates: 0 });
  const book = toOrderBook((await archive.bookAt(asset, hour + 4990))!);
  expect(book).toMatchObject({
    bids: [
      { price: 0.46, size: 5 },
      { price: 0.45, size: 20 },
      { price: 0.4, size: 100 },
    ],
    asks: [],
    lastTradePrice: 0.46,
    timestamp: hour + 4990,
    sourceMetadata: { tickSize: 0.001 },
  });
  expect(await archive.importFiles([source])).toEqual({ files: 1, hours: ['2026-11-23T14'], rows: 0, duplicates: 5 });
  expect(archive.listFiles().map((file) => file.rows)).toEqual([5]);
  await archive.close();
}, 60_000);

test('imported rows the recorder also holds count once, and an imported file of ours reproduces the same books', async () => {
  const recordedDir = tempDir();
  let now = hour + 500;
  const recorded = await PolymarketArchive.open({ dir: recordedDir, now: () => now });
  // The recorder saw the first two events, a few ms later than pmxt did.
  const rows: MarketRow[] = [
    {
      receivedAt: hour + 1003,
      timestamp: hour + 990,
      market,
      eventType: 'book',
      assetId: asset,
      bids: [
        { price: '0.40', size: '100' },
        { price: '0.45', size: '20' },
      ],
      asks: [{ price: '0.55', size: '30' }],
    },
    {
      receivedAt: hour + 2004,
      timestamp: hour + 1990,
      market,
      eventType: 'price_change',
      assetId: asset,
      price: '0.46',
      size: '5',
      side: 'BUY',
      bestBid: '0.46',
      bestAsk: '0.55',
    },
  ];
  recorded.append(rows);
  now += 3_600_000;
  await recorded.rollDue();
  const source = join(tempDir(), 'polymarket_orderbook_2026-11-23T14.parquet');
  await writePmxtFile(source, pmxtRows);
  expect(await recorded.importFiles([source])).toMatchObject({ rows: 3, duplicates: 2 });
  expect(recorded.listFiles()[0]!.rows).toBe(5);
  const range = { since: hour, until: hour + 10_000, limit: 100 };
  const books = await recorded.booksBetween(asset, range);
  expect(books.map((book) => book.timestamp)).toEqual([hour + 990, hour + 1990, hour + 2990, hour + 3990, hour + 4990]);

  // Our own published file, imported into an empty archive, gives the same books.
  const fresh = await PolymarketArchive.open({ dir: tempDir(), now: () => now });
  await fresh.importFiles([join(recordedDir, 'files', recorded.listFiles()[0]!.name)]);
  expect((await fresh.booksBetween(asset, range)).map((book) => toOrderBook(book))).toEqual(books.map((book) => toOrderBook(book)));
  await fresh.close();
  await recorded.close();
}, 60_000);

/**
 * An hour of a few busy tokens in recording order: a book each, then price
 * changes around it, trades and a tick size change, from a fixed seed.
 */
function busyHour(tokens: number, rowsPerToken: number): MarketRow[] {
  let seed = 7;
  const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
  const tick = (value: number) => (Math.round(value * 100) / 100).toFixed(2);
  const rows: MarketRow[] = [];
  for (let token = 0; token < tokens; token += 1) {
    const assetId = `${token + 1}${'7'.repeat(70)}`;
    const tokenMarket = `0x${(Math.floor(token / 2) + 16).toString(16).repeat(32)}`;
    const spacing = Math.floor(3_500_000 / rowsPerToken);
    for (let index = 0; index < rowsPerToken; index += 1) {
      const timestamp = hour + token + index * spacing;
      const row: MarketRow = { receivedAt: timestamp + 5, timestamp, market: tokenMarket, eventType: 'price_change', assetId };
      if (index === 0) {
        row.eventType = 'book';
        row.bids = [0.3, 0.35, 0.4].map((price) => ({ price: tick(price), size: String(100 + token) }));
        row.asks = [0.6, 0.55, 0.5].map((price) => ({ price: tick(price), size: String(50 + token) }));
      } else if (index % 97 === 0) {
        Object.assign(row, {
          eventType: 'last_trade_price',
          price: tick(0.3 + random() * 0.4),
          size: '3',
          side: 'BUY',
          feeRateBps: '0',
          transactionHash: `0x${index.toString(16)}`,
        });
      } else if (index === Math.floor(rowsPerToken / 2)) {
        Object.assign(row, { eventType: 'tick_size_change', oldTickSize: '0.01', newTickSize: '0.001' });
      } else {
        const buy = random() < 0.5;
        const price = buy ? 0.2 + random() * 0.25 : 0.5 + random() * 0.3;
        Object.assign(row, {
          price: tick(price),
          size: random() < 0.2 ? '0' : String(Math.floor(random() * 500)),
          side: buy ? 'BUY' : 'SELL',
          bestBid: '0.40',
          bestAsk: '0.50',
        });
      }
      rows.push(row);
    }
  }
  return rows.sort((a, b) => a.receivedAt - b.receivedAt);
}

test('a file of many row groups imports, and every book reads back as the recorder holds it', async () => {
  const tokens = 4;
  const rows = busyHour(tokens, 1_200);
  const recordedDir = tempDir();
  let now = hour;
  const recorded = await PolymarketArchive.open({ dir: recordedDir, now: () => now, rollInChildProcess: false });
  recorded.append(rows);
  now += 3_600_001;
  await recorded.rollDue();
  const ours = join(recordedDir, 'files', recorded.listFiles()[0]!.name);
  // The same rows and types, rewritten in row groups of 2,048 rows (pmxt's files hold about a million each).
  const source = join(tempDir(), 'polymarket_orderbook_2026-11-23T14.parquet');
  await queryDuckDb(`COPY (SELECT * FROM read_parquet('${ours}')) TO '${source}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 2048)`);
  const [groups] = await queryDuckDb(`SELECT count(DISTINCT row_group_id) AS n FROM parquet_metadata('${source}')`);
  expect(Number(groups!.n)).toBeGreaterThanOrEqual(3);

  const imported = await PolymarketArchive.open({ dir: tempDir(), now: () => hour + 5 * 3_600_000 });
  expect(await imported.importFiles([source])).toEqual({ files: 1, hours: ['2026-11-23T14'], rows: rows.length, duplicates: 0 });
  for (let token = 0; token < tokens; token += 1) {
    const assetId = rows.find((row) => row.assetId.startsWith(String(token + 1)))!.assetId;
    for (const moment of [hour + 1_000, hour + 1_200_000, hour + 1_750_123, hour + 3_599_999]) {
      expect(toOrderBook((await imported.bookAt(assetId, moment))!)).toEqual(toOrderBook((await recorded.bookAt(assetId, moment))!));
    }
    const range = { since: hour, until: hour + 3_599_999, limit: 2_000 };
    const books = await recorded.booksBetween(assetId, range);
    expect(books.length).toBeGreaterThan(1_000);
    expect((await imported.booksBetween(assetId, range)).map((book) => toOrderBook(book))).toEqual(books.map((book) => toOrderBook(book)));
  }
  await imported.close();
  await recorded.close();
}, 60_000);

/**
 * Rows `from` to `to` of one busy token's hour in pmxt's v2 types, in pmxt's
 * order, each a distinct venue event; `lateMs` is added to the receive times
 * (another recorder, a little later).
 */
function pmxtRowsSql(from: number, to: number, lateMs: number): string {
  return `SELECT to_timestamp((${hour} + i * 10 + ${lateMs}) / 1000) AS timestamp_received, to_timestamp((${hour} + i * 10) / 1000) AS timestamp,
      encode('${market}') AS market, 'price_change' AS event_type, '${asset}' AS asset_id, NULL::VARCHAR AS bids, NULL::VARCHAR AS asks,
      CAST(0.01 * (i % 99 + 1) AS DECIMAL(9,4)) AS price, CAST(i AS DECIMAL(18,6)) AS size, 'BUY' AS side, CAST(0.4 AS DECIMAL(9,4)) AS best_bid,
      CAST(0.5 AS DECIMAL(9,4)) AS best_ask, NULL::USMALLINT AS fee_rate_bps, '0x' || md5(i::VARCHAR) || md5(i::VARCHAR) AS transaction_hash,
      NULL::DECIMAL(9,4) AS old_tick_size, NULL::DECIMAL(9,4) AS new_tick_size
    FROM range(${from}, ${to}) AS t(i)`;
}

test('an hour of a file is staged a row group at a time, within a DuckDB memory limit a fraction of its rows', async () => {
  const dir = tempDir();
  const source = join(dir, 'source.parquet');
  await queryDuckDb(`COPY (${pmxtRowsSql(0, 160_000, 0)}) TO '${source}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 4096)`);
  const staged = join(dir, 'staged.tsv');
  expect(await stageHour({ path: source, start: hour, staged, memoryLimit: '12MB', spillDir: dir })).toEqual({ stagedRows: 160_000 });
  expect(statSync(staged).size).toBeGreaterThan(3 * 12 * 2 ** 20);
  expect(inFileOrder(staged)).toBe(true);
}, 60_000);

test("the scan that finds the hours a file holds counts each hour's rows, and staging an hour counts the lines it writes", async () => {
  const dir = tempDir();
  const source = join(dir, 'source.parquet');
  // Rows 359,995 to 360,006 are 10 ms apart: five in the hour, seven in the next.
  await queryDuckDb(`COPY (${pmxtRowsSql(359_995, 360_007, 0)}) TO '${source}' (FORMAT parquet, COMPRESSION zstd)`);
  expect(await hoursIn(source, '32MB')).toEqual([
    { start: hour, rows: 5 },
    { start: hour + 3_600_000, rows: 7 },
  ]);
  const staged = join(dir, 'staged.tsv');
  expect(await stageHour({ path: source, start: hour + 3_600_000, staged, memoryLimit: '32MB', spillDir: dir })).toEqual({ stagedRows: 7 });
  expect(readFileSync(staged, 'utf8').trimEnd().split('\n')).toHaveLength(7);
});

test("with an hour held, the file's rows of events it holds are left out, and the rest are staged with the held rows", async () => {
  const dir = tempDir();
  const source = join(dir, 'source.parquet');
  const held = join(dir, 'held.parquet');
  await queryDuckDb(`COPY (${pmxtRowsSql(0, 40_000, 0)}) TO '${source}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 16384)`);
  await queryDuckDb(`COPY (${pmxtRowsSql(20_000, 60_000, 3)}) TO '${held}' (FORMAT parquet, COMPRESSION zstd)`);
  const staged = join(dir, 'staged.tsv');
  expect(await stageHour({ path: source, start: hour, held, staged, memoryLimit: '32MB', spillDir: dir })).toEqual({ stagedRows: 60_000 });
  const lines = readFileSync(staged, 'utf8').trimEnd().split('\n');
  // Each event once: the held copy (received 3 ms later) of the events both hold, the file's own of the rest.
  const delays = new Map(
    lines.map((line) => {
      const fields = line.split('\t');
      return [Number(fields[8]), Number(fields[0]) - Number(fields[1])];
    }),
  );
  expect([lines.length, delays.size]).toEqual([60_000, 60_000]);
  expect([delays.get(0), delays.get(19_999), delays.get(20_000), delays.get(59_999)]).toEqual([0, 0, 3, 3]);
  expect(inFileOrder(staged)).toBe(false);
}, 60_000);
