import { mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { PolymarketArchive } from '../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const hour0 = Date.UTC(2026, 10, 24, 0, 0, 0);
const market = `0x${'6a'.repeat(32)}`;

test('a reading archive sees an hour another archive publishes after it listed the folders, at its next query', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'archive-listing-'));
  dirs.push(dir);
  // Folders last changed a minute ago: the reader's first listing is one it keeps until they change.
  const aMinuteAgo = new Date(Date.now() - 60_000);
  for (const folder of ['journal', 'files', 'index']) {
    mkdirSync(join(dir, folder), { recursive: true });
    utimesSync(join(dir, folder), aMinuteAgo, aMinuteAgo);
  }
  const reader = await PolymarketArchive.open({ dir, mode: 'read' });
  expect(await reader.bookAt('1001', hour0 + 5_000)).toBeUndefined();
  expect(reader.listFiles()).toEqual([]);

  let now = hour0 + 1_000;
  const writer = await PolymarketArchive.open({ dir, now: () => now, rollInChildProcess: false, checkpointEvery: 2 });
  writer.append([
    { receivedAt: now, timestamp: now, market, eventType: 'book', assetId: '1001', bids: [{ price: '0.4', size: '100' }], asks: [{ price: '0.6', size: '5' }] },
  ]);
  now = hour0 + 2_000;
  writer.append([{ receivedAt: now, timestamp: now, market, eventType: 'price_change', assetId: '1001', price: '0.41', size: '7', side: 'BUY' }]);
  writer.flush();
  now = hour0 + 3_600_000 + 1_000;
  await writer.rollDue();
  await writer.close();

  const book = await reader.bookAt('1001', hour0 + 5_000);
  expect(book).toMatchObject({
    bids: [
      { price: '0.4', size: '100' },
      { price: '0.41', size: '7' },
    ],
  });
  expect(reader.listFiles().map((file) => file.hour)).toEqual([new Date(hour0).toISOString()]);
  await reader.close();
});
