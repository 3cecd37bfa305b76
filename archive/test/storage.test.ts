import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { queryDuckDb as query } from './duckdb-query.js';
import { readMarketFrame } from '@predgate/adapter-polymarket/streams';
import type { MarketRow } from '@predgate/adapter-polymarket/streams';
import { PolymarketArchive, v2Columns } from '../src/index.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'archive-store-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const hour0 = Date.UTC(2026, 10, 24, 0, 0, 0);
const asset = '76670567130917723816490572615540605537878462672464291990940067659127658071111';
const longMarket = `0x${'ab'.repeat(32)}`;

function bookRow(at: number, bid: string): MarketRow {
  return {
    receivedAt: at,
    timestamp: at - 3,
    market: longMarket,
    eventType: 'book',
    assetId: asset,
    bids: [{ price: bid, size: '100' }],
    asks: [{ price: '0.9', size: '50' }],
    newTickSize: '0.01',
    price: '0.5',
  };
}

test('a closed hour becomes one ZSTD Parquet file named and shaped like pmxt v2, listed with its facts', async () => {
  const dir = tempDir();
  let now = hour0 + 1000;
  const archive = await PolymarketArchive.open({ dir, now: () => now });
  archive.append([
    bookRow(hour0 + 1000, '0.4'),
    {
      receivedAt: hour0 + 2000,
      timestamp: hour0 + 1990,
      market: longMarket,
      eventType: 'price_change',
      assetId: asset,
      price: '0.41',
      size: '7',
      side: 'BUY',
      bestBid: '0.41',
      bestAsk: '0.9',
    },
  ]);
  expect(archive.listFiles()).toEqual([]);
  now = hour0 + 3_600_000 + 5;
  await archive.rollDue();
  const [file] = archive.listFiles();
  expect(file).toMatchObject({ name: 'polymarket_orderbook_2026-11-24T00.parquet', hour: '2026-11-24T00:00:00.000Z', rows: 2 });
  expect(file!.sha256).toMatch(/^[0-9a-f]{64}$/);
  const path = join(dir, 'files', file!.name);
  const columns = await query(`DESCRIBE SELECT * FROM read_parquet('${path}')`);
  expect(columns.map((column) => column.column_name)).toEqual([...v2Columns]);
  const rows = await query(
    `SELECT decode(market) AS market, event_type, CAST(price AS DOUBLE) AS price, side, epoch_ms(timestamp) AS ts FROM read_parquet('${path}')`,
  );
  expect(rows).toEqual([
    { market: longMarket, event_type: 'book', price: 0.5, side: null, ts: BigInt(hour0 + 997) },
    { market: longMarket, event_type: 'price_change', price: 0.41, side: 'BUY', ts: BigInt(hour0 + 1990) },
  ]);
  const compression = await query(`SELECT DISTINCT compression FROM parquet_metadata('${path}')`);
  expect(compression).toEqual([{ compression: 'ZSTD' }]);
  expect(await archive.verify()).toEqual([{ file: file!.name }]);
  await archive.close();
}, 60_000);

test('a reconstruction across a time the connection was down says so, until the next full snapshot', async () => {
  const dir = tempDir();
  const now = hour0 + 100_000;
  const archive = await PolymarketArchive.open({ dir, now: () => now });
  archive.append([bookRow(hour0 + 1000, '0.4')]);
  archive.markGap({ from: hour0 + 2000, to: hour0 + 5000, assetIds: [asset], reason: 'connection closed' });
  archive.append([
    { receivedAt: hour0 + 6000, timestamp: hour0 + 6000, market: longMarket, eventType: 'price_change', assetId: asset, price: '0.42', size: '1', side: 'BUY' },
  ]);
  archive.append([bookRow(hour0 + 9000, '0.45')]);
  expect((await archive.bookAt(asset, hour0 + 1500))?.gap).toBeUndefined();
  expect((await archive.bookAt(asset, hour0 + 3000))?.gap).toEqual({ from: hour0 + 2000, to: hour0 + 5000 });
  expect((await archive.bookAt(asset, hour0 + 7000))?.gap).toEqual({ from: hour0 + 2000, to: hour0 + 5000 });
  expect((await archive.bookAt(asset, hour0 + 9000))?.gap).toBeUndefined();
  await archive.close();
});

test('kill -9 while recording and rolling loses no flushed row, leaves no half-written file, and the next start resumes', async () => {
  const dir = tempDir();
  // Few rows an hour: what is checked is hour edges, rolls and kills, and every row flushed is one fsync'd batch more.
  const rowsPerHour = 100;
  const runChild = (firstRow: number, killAfter: number, env: Record<string, string> = {}) =>
    new Promise<number>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--conditions=predgate-source', '--import', 'tsx', join(import.meta.dirname, 'crash-writer.ts'), dir, String(rowsPerHour)],
        {
          env: { ...process.env, CRASH_FIRST_ROW: String(firstRow), ...env },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let flushed = firstRow;
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        for (const match of text.matchAll(/flushed (\d+)\n/g)) flushed = Number(match[1]);
        text = text.slice(text.lastIndexOf('\n') + 1);
        if (flushed >= firstRow + killAfter) child.kill('SIGKILL');
      });
      child.on('error', reject);
      child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(flushed) : reject(new Error(`child exited without being killed (${signal})`))));
    });

  // Two crashes, each after an hour edge. The writer may flush a little more than it reported before the kill lands,
  // so the restarted one numbers its rows from a million and runs a day later. The first is killed while its roll
  // process runs; the restarted one rolls in its own process (recovering the first one's hours, then its own), so
  // its kill can land in the middle of writing an hour's file.
  const firstFlushed = await runChild(0, 150);
  const restartOffset = 1_000_000;
  const secondFlushed = await runChild(firstFlushed, 130, {
    CRASH_SIZE_OFFSET: String(restartOffset),
    CRASH_TIME_OFFSET: String(24 * 3_600_000),
    CRASH_ROLL_IN_PROCESS: '1',
  });

  const finalTime = Date.UTC(2026, 10, 24, 0, 0, 0) + 96 * 3_600_000;
  // Rolled here in this process: the children above rolled in child processes, and were killed in the middle of it.
  const archive = await PolymarketArchive.open({ dir, now: () => finalTime, rollInChildProcess: false });
  await archive.rollDue();
  expect(readdirSync(join(dir, 'files')).filter((name) => !name.startsWith('polymarket_orderbook_'))).toEqual([]);
  const files = archive.listFiles();
  for (const result of await archive.verify()) expect(result.problem).toBeUndefined();
  const all = `read_parquet([${files.map((file) => `'${join(dir, 'files', file.name)}'`).join(',')}])`;
  const counted = await query(`SELECT count(DISTINCT size) AS distinct_rows, count(*) AS all_rows FROM ${all} WHERE event_type = 'price_change'`);
  // Each row is held once, though a restart re-reads the journal it left.
  expect(counted[0]!.distinct_rows).toBe(counted[0]!.all_rows);
  const sizes = await query(`SELECT list(DISTINCT CAST(size AS BIGINT)) AS sizes FROM ${all} WHERE event_type = 'price_change'`);
  const held = new Set((sizes[0]!.sizes as bigint[]).map(Number));
  const missing: number[] = [];
  for (let n = 0; n < firstFlushed; n += 1) if (n % 25 !== 0 && !held.has(n)) missing.push(n);
  for (let n = firstFlushed; n < secondFlushed; n += 1) if (n % 25 !== 0 && !held.has(n + restartOffset)) missing.push(n + restartOffset);
  expect(missing).toEqual([]);
  await archive.close();
}, 240_000);

test('frames journalled as received are read again after a crash, with the rows, checkpoints and gaps around them', async () => {
  const dir = tempDir();
  const now = hour0 + 50_000;
  const crashed = await PolymarketArchive.open({ dir, now: () => now, checkpointEvery: 2 });
  const frames = [
    `[{"event_type":"book","market":"${longMarket}","asset_id":"${asset}","timestamp":"${hour0 + 900}",\n"bids":[{"price":"0.4","size":"100"}],"asks":[{"price":"0.9","size":"50"}],"tick_size":"0.01"}]`,
    `{"event_type":"price_change","market":"${longMarket}","timestamp":"${hour0 + 1900}","price_changes":[{"asset_id":"${asset}","price":"0.41","size":"3","side":"BUY"}]}`,
    `{"event_type":"price_change","market":"${longMarket}","timestamp":"${hour0 + 2900}","price_changes":[{"asset_id":"${asset}","price":"0.4","size":"0","side":"BUY"}]}`,
  ];
  frames.forEach((text, index) => crashed.append(readMarketFrame(text, hour0 + 1000 * (index + 1)).rows, { text, receivedAt: hour0 + 1000 * (index + 1) }));
  crashed.append([
    {
      receivedAt: hour0 + 4000,
      timestamp: hour0 + 3900,
      market: longMarket,
      eventType: 'last_trade_price',
      assetId: asset,
      price: '0.41',
      size: '1',
      side: 'SELL',
    },
  ]);
  const expected = await crashed.bookAt(asset, hour0 + 3900);
  crashed.flush();
  // No close: the process is gone. A new one recovers the journal.
  const restarted = await PolymarketArchive.open({ dir, now: () => now + 1000 });
  const recovered = await restarted.bookAt(asset, hour0 + 3900);
  expect(recovered).toEqual(expected);
  expect(recovered).toMatchObject({ bids: [{ price: '0.41', size: '3' }], tickSize: '0.01', lastTradePrice: '0.41' });
  await restarted.close();
  await crashed.close();
});

test('more than the journal buffer between two flushes is written out in order: open-hour books read at every checkpoint, and again after a restart', async () => {
  const dir = tempDir();
  let now = hour0 + 1_000;
  // A row of 600 levels is about 20 KB of journal line: 300 of them are more than the 4 MiB buffer.
  const levels = (side: number) => Array.from({ length: 300 }, (_, index) => ({ price: (0.001 * (index + 1) + side).toFixed(4), size: String(index + 1) }));
  const archive = await PolymarketArchive.open({ dir, now: () => now, checkpointEvery: 7, flushIntervalMs: 600_000 });
  const sizes: string[] = [];
  for (let index = 0; index < 300; index += 1) {
    now += 1_000;
    const row = { ...bookRow(now, '0.1'), bids: levels(0), asks: levels(0.5) };
    const size = String(1_000 + index);
    row.bids[0] = { price: '0.001', size };
    sizes.push(size);
    archive.append([row]);
  }
  const expectBooks = async (reader: PolymarketArchive) => {
    for (const index of [0, 6, 7, 150, 299]) {
      const book = await reader.bookAt(asset, hour0 + 1_000 + (index + 1) * 1_000 - 3);
      expect(book?.bids.find((level) => level.price === '0.001')?.size).toBe(sizes[index]);
      expect(book?.bids).toHaveLength(300);
    }
  };
  await expectBooks(archive);
  await archive.close();
  const reopened = await PolymarketArchive.open({ dir, now: () => now, checkpointEvery: 7, flushIntervalMs: 600_000 });
  try {
    await expectBooks(reopened);
  } finally {
    await reopened.close();
  }
});
