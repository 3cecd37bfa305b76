import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { toOrderBook } from '@predgate/adapter-polymarket/streams';
import type { BookSnapshot, MarketRow } from '@predgate/adapter-polymarket/streams';
import { PolymarketArchive } from '../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const hour = Date.UTC(2026, 10, 22, 9);
const market = `0x${'cd'.repeat(32)}`;
const assets = ['5001', '5002'];

/** Two tokens' hour: a book each, then price changes, so checkpoints (every 4 rows) fall inside the hour. */
function hourRows(): MarketRow[] {
  const rows: MarketRow[] = [];
  for (const [index, assetId] of assets.entries()) {
    rows.push({
      receivedAt: hour + 1_000 + index,
      timestamp: hour + 990,
      market,
      eventType: 'book',
      assetId,
      bids: [{ price: '0.40', size: '100' }],
      asks: [{ price: '0.60', size: '80' }],
    });
  }
  for (let step = 1; step <= 30; step += 1) {
    const assetId = assets[step % 2]!;
    rows.push({
      receivedAt: hour + 1_000 + step * 60_000,
      timestamp: hour + step * 60_000,
      market,
      eventType: 'price_change',
      assetId,
      price: `0.${30 + step}`,
      size: String(step * 10),
      side: 'BUY',
    });
  }
  return rows;
}

const moments = [hour + 30_000, hour + 7 * 60_000 + 5_000, hour + 20 * 60_000, hour + 59 * 60_000];
const orderBooks = (books: (BookSnapshot | undefined)[]) => books.map((book) => book && toOrderBook(book));

async function booksAt(archive: PolymarketArchive) {
  const books: (BookSnapshot | undefined)[] = [];
  for (const assetId of assets) for (const moment of moments) books.push(await archive.bookAt(assetId, moment));
  return orderBooks(books);
}

test('an hour rolled before hours had an index counts as holding nothing until the writing archive indexes it, in the background at start, from its own file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'archive-reindex-'));
  dirs.push(dir);
  let now = hour;
  const recorded = await PolymarketArchive.open({ dir, now: () => now, checkpointEvery: 4, rollInChildProcess: false });
  recorded.append(hourRows());
  now = hour + 3_600_001;
  await recorded.rollDue();
  const expected = await booksAt(recorded);
  expect(expected.filter(Boolean)).toHaveLength(2 * moments.length);
  const [published] = recorded.listFiles();
  const indexPath = recorded.checkpointPath(hour);
  await recorded.close();

  // As the hour was published before hours had an index: the file and its facts, no index.
  rmSync(indexPath);
  const reading = await PolymarketArchive.open({ dir, mode: 'read' });
  expect(await booksAt(reading)).toEqual(expected.map(() => undefined));
  await reading.close();

  const writing = await PolymarketArchive.open({ dir, now: () => now, checkpointEvery: 4, rollInChildProcess: false });
  // Indexing runs with the rolls: waiting for the rolls due waits for it.
  await writing.rollDue();
  expect(existsSync(indexPath)).toBe(true);
  expect(await booksAt(writing)).toEqual(expected);
  expect(writing.listFiles().map(({ name, rows }) => ({ name, rows }))).toEqual([{ name: published!.name, rows: published!.rows }]);
  await writing.close();
});
