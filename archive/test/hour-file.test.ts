import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, expect, test } from 'vitest';
import { queryDuckDb as query } from './duckdb-query.js';
import { widePageRows } from '../src/column-chunks.js';
import { HourFileWriter, unscaled, unscaledBig, unscaledNumber } from '../src/hour-file.js';
import { HourReader, decimalText } from '../src/reader.js';
import type { StagedRow } from '../src/staged-rows.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const market = `0x${'c3'.repeat(32)}`;

function row(index: number, bids: string | null): StagedRow {
  return {
    receivedAt: 1_000 + index,
    timestamp: 990 + index,
    market,
    eventType: bids === null ? 'price_change' : 'book',
    assetId: `${1000 + (index % 3)}`,
    bids,
    asks: bids === null ? null : '[]',
    price: bids === null ? '0.51' : null,
    size: bids === null ? '2' : null,
    side: bids === null ? 'BUY' : null,
    bestBid: null,
    bestAsk: null,
    feeRateBps: null,
    transactionHash: index % 1000 === 7 ? `0x${index}` : null,
    oldTickSize: null,
    newTickSize: null,
  };
}

test('text columns split into pages by rows and by bytes read back row for row, nulls where they were', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'archive-hour-file-'));
  dirs.push(dir);
  const path = join(dir, 'hour.parquet');
  // Past one page's 131,072 rows, and book levels long enough that pages also end on their 1 MiB of text.
  const rows = 140_000;
  const deep = (index: number) => `[${Array.from({ length: 60 }, (_, level) => `["0.${String(level).padStart(2, '0')}","${index}"]`).join(',')}]`;
  const bidsOf = (index: number) => (index % 50 === 0 ? deep(index) : index % 7 === 0 ? '[]' : null);
  const writer = await HourFileWriter.create(path);
  for (let index = 0; index < rows; index += 1) writer.add(row(index, bidsOf(index)));
  writer.close();

  // Rows come back in file order.
  const read = await query(`SELECT bids, transaction_hash FROM read_parquet('${path}')`);
  const expected = Array.from({ length: rows }, (_, index) => ({ bids: bidsOf(index), transaction_hash: index % 1000 === 7 ? `0x${index}` : null }));
  expect(read.length).toBe(rows);
  const differing = read.findIndex((value, index) => value.bids !== expected[index]!.bids || value.transaction_hash !== expected[index]!.transaction_hash);
  expect(differing).toBe(-1);
  // 2,800 deep books of over 1 KiB: more than one page's worth of text.
  expect((rows / 50) * deep(0).length).toBeGreaterThan(2 << 20);

  // Rows read by position through the offset indexes across a page edge of every column (the times' pages are the widest).
  const reader = await HourReader.open();
  const from = widePageRows - 300;
  const byPosition = await reader.rows(path, { from, to: from + 600, firstOrdinal: 0 }, { market, assetId: '1000' });
  await reader.close();
  expect(byPosition.map(({ receivedAt, timestamp, size }) => ({ receivedAt, timestamp, size }))).toEqual(
    Array.from({ length: 600 }, (_, position) => {
      const expected = row(from + position, bidsOf(from + position));
      return { receivedAt: expected.receivedAt, timestamp: expected.timestamp, size: expected.size === null ? undefined : '2.000000' };
    }),
  );
});

test('decimals read on the fast path unscale exactly as the exact reader does', () => {
  const digits = (max: number) => fc.stringMatching(new RegExp(`^[0-9]{1,${max}}$`));
  const decimal = fc.oneof(
    fc.tuple(digits(20), fc.option(digits(9), { nil: undefined })).map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`)),
    fc.constantFrom('0', '0.5', '.5', '5.', '0.00005', '0.99995', '12345678901234.123456', '9007199254740993', '1e-3', '-0.25'),
  );
  fc.assert(
    fc.property(decimal, (value) => {
      expect(unscaledBig(value, 6)).toBe(unscaled(value, 6));
      if (unscaled(value, 4) < 2n ** 31n) expect(unscaledNumber(value, 4)).toBe(Number(unscaled(value, 4)));
    }),
    { numRuns: 2000, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
  );
});

test('a stored decimal reads back as the text of its unscaled value, exactly, for every width and sign', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(4, 8),
      fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.bigInt({ min: -(2n ** 40n), max: 2n ** 48n }), fc.bigInt({ min: -1000n, max: 1000n })),
      fc.constantFrom(4, 6),
      (bytes, wide, scale) => {
        const value = BigInt.asIntN(bytes * 8, wide);
        const stored = new Uint8Array(bytes);
        for (let index = 0; index < bytes; index += 1) stored[index] = Number((BigInt.asUintN(bytes * 8, value) >> BigInt((bytes - 1 - index) * 8)) & 0xffn);
        const digits = (value < 0n ? -value : value).toString().padStart(scale + 1, '0');
        const text = `${value < 0n ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
        expect(decimalText(stored, scale)).toBe(text);
      },
    ),
    { numRuns: 500, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
  );
});
