import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { IndexedRow } from '../src/reconstruct.js';
import { widePageRows } from '../src/column-chunks.js';
import { HourFileWriter } from '../src/hour-file.js';
import { HourReader } from '../src/reader.js';
import { levelsOf } from '../src/staged-rows.js';
import type { StagedRow } from '../src/staged-rows.js';

const market = `0x${'5e'.repeat(32)}`;
const assetId = '4242';
// Past two pages of the times (the widest) and several of every other column; deep books also end text pages on their bytes.
const rows = 2 * widePageRows + 5_000;

/** Fractions in [0, 1) that vary with the row in no pattern a page edge follows, the same on every run. */
function fractions(index: number): () => number {
  let salt = 0;
  return () => (Math.imul((index + 1) ^ Math.imul(++salt, 0x9e3779b1), 0x85ebca6b) >>> 0) / 2 ** 32;
}

/** Row `index` of the file: every kind of row, nulls in every optional column, hundreds of distinct prices for the dictionaries. */
function stagedRow(index: number, random: () => number): StagedRow {
  const kind = random();
  const base = { receivedAt: 1_700_000_000_000 + index * 7, timestamp: 1_700_000_000_000 + index * 7 - Math.floor(random() * 50), market, assetId };
  const empty = {
    bids: null,
    asks: null,
    price: null,
    size: null,
    side: null,
    bestBid: null,
    bestAsk: null,
    feeRateBps: null,
    transactionHash: null,
    oldTickSize: null,
    newTickSize: null,
  };
  const levels = (count: number) =>
    `[${Array.from({ length: count }, (_, level) => `["0.${String(10 + (level % 89)).padStart(2, '0')}","${index + level}"]`).join(',')}]`;
  if (kind < 0.03) return { ...base, ...empty, eventType: 'book', bids: levels(Math.floor(random() * 400)), asks: levels(Math.floor(random() * 3)) };
  if (kind < 0.9) {
    return {
      ...base,
      ...empty,
      eventType: 'price_change',
      price: (Math.floor(random() * 9999) / 10_000 + 0.0001).toFixed(4),
      size: String(Math.floor(random() * 100_000)),
      side: random() < 0.5 ? 'BUY' : 'SELL',
    };
  }
  if (kind < 0.999) return { ...base, ...empty, eventType: 'last_trade_price', price: '0.5000', size: '3', side: 'BUY', transactionHash: `0x${index}` };
  return { ...base, ...empty, eventType: 'tick_size_change', oldTickSize: '0.01', newTickSize: '0.001' };
}

/** The row as a book's replay reads it back: decimals as text at their scale (4 for prices, 6 for sizes). */
function replayed(row: StagedRow, ordinal: number): IndexedRow {
  const read: IndexedRow = {
    row: ordinal,
    receivedAt: row.receivedAt,
    timestamp: row.timestamp,
    market,
    eventType: row.eventType as IndexedRow['eventType'],
    assetId,
  };
  if (row.bids !== null) read.bids = levelsOf(row.bids);
  if (row.asks !== null) read.asks = levelsOf(row.asks);
  if (row.price !== null) read.price = Number(row.price).toFixed(4);
  if (row.size !== null) read.size = `${row.size}.000000`;
  if (row.side === 'BUY' || row.side === 'SELL') read.side = row.side;
  if (row.newTickSize !== null) read.newTickSize = Number(row.newTickSize).toFixed(4);
  return read;
}

let dir: string;
let path: string;
const written: StagedRow[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'archive-page-rows-'));
  path = join(dir, 'hour.parquet');
  const writer = await HourFileWriter.create(path);
  for (let index = 0; index < rows; index += 1) {
    const row = stagedRow(index, fractions(index));
    written.push(row);
    writer.add(row);
  }
  writer.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('any run of rows reads back exactly as written, decoding only the rows asked for, across page edges of every column', async () => {
  expect(new Set(written.map((row) => row.eventType)).size).toBe(4);
  const reader = await HourReader.open();
  try {
    // Starts and ends near the edges of the narrow and the wide pages, and anywhere.
    const edges = [0, 4096, 8192, widePageRows, 2 * widePageRows, rows];
    const position = fc.oneof(
      fc.integer({ min: 0, max: rows }),
      fc.tuple(fc.constantFrom(...edges), fc.integer({ min: -3, max: 3 })).map(([edge, offset]) => Math.min(rows, Math.max(0, edge + offset))),
    );
    await fc.assert(
      fc.asyncProperty(position, fc.integer({ min: 1, max: 6_000 }), fc.integer({ min: 0, max: 1_000 }), async (from, length, firstOrdinal) => {
        const to = Math.min(rows, from + length);
        const read = await reader.rows(path, { from, to, firstOrdinal }, { market, assetId });
        expect(read).toEqual(written.slice(from, to).map((row, offset) => replayed(row, firstOrdinal + offset)));
      }),
      { numRuns: 150, seed: 34 },
    );
  } finally {
    await reader.close();
  }
});
