import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, expect, test } from 'vitest';
import { toOrderBook } from '@predgate/adapter-polymarket/streams';
import type { MarketRow } from '@predgate/adapter-polymarket/streams';
import { PolymarketArchive } from '../src/index.js';

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
