import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMarketFrame } from '@predgate/adapter-polymarket/streams';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet-writer';
import { writeFileSync } from 'node:fs';
import { afterEach, expect, test } from 'vitest';
import { queryDuckDb as query } from './duckdb-query.js';
import { PolymarketArchive } from '../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * pmxt's v2 schema as published (archive.pmxt.dev/docs/v2-data-overview) and
 * as two real files were audited: Arrow types timestamp[ms, UTC] ×2,
 * fixed_size_binary[66], string, string, string?, string?, decimal128(9,4)?,
 * decimal128(18,6)?, string?, decimal128(9,4)? ×2, uint16?, string?,
 * decimal128(9,4)? ×2 (? = nullable; the first five are not). Written here as
 * the Parquet elements pyarrow (pmxt's writer) makes of those Arrow types,
 * independently of the archive's own schema code.
 */
const utcMillis = { type: 'INT64', converted_type: 'TIMESTAMP_MILLIS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' } } as const;
const utf8 = { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } } as const;
const dec = (precision: number, scale: number) =>
  ({
    type: 'FIXED_LEN_BYTE_ARRAY',
    // pyarrow stores decimals as the fewest bytes that hold the precision.
    type_length: precision <= 9 ? 4 : 8,
    converted_type: 'DECIMAL',
    precision,
    scale,
    logical_type: { type: 'DECIMAL', precision, scale },
  }) as const;
const pmxtPublished: [string, Omit<SchemaElement, 'name'>, boolean][] = [
  ['timestamp_received', utcMillis, true],
  ['timestamp', utcMillis, true],
  ['market', { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 66 }, true],
  ['event_type', utf8, true],
  ['asset_id', utf8, true],
  ['bids', utf8, false],
  ['asks', utf8, false],
  ['price', dec(9, 4), false],
  ['size', dec(18, 6), false],
  ['side', utf8, false],
  ['best_bid', dec(9, 4), false],
  ['best_ask', dec(9, 4), false],
  ['fee_rate_bps', { type: 'INT32', converted_type: 'UINT_16', logical_type: { type: 'INTEGER', bitWidth: 16, isSigned: false } }, false],
  ['transaction_hash', utf8, false],
  ['old_tick_size', dec(9, 4), false],
  ['new_tick_size', dec(9, 4), false],
];

function writeReference(path: string): void {
  const writer = new ByteWriter();
  const parquet = new ParquetWriter({
    writer,
    schema: [
      { name: 'schema', num_children: pmxtPublished.length },
      ...pmxtPublished.map(([name, element, required]) => ({ ...element, name, repetition_type: required ? ('REQUIRED' as const) : ('OPTIONAL' as const) })),
    ],
    codec: 'UNCOMPRESSED',
  });
  parquet.write({
    columnData: pmxtPublished.map(([name, element]) => ({
      name,
      data: [
        element.type === 'INT64'
          ? 1n
          : element.type === 'FIXED_LEN_BYTE_ARRAY' && name === 'market'
            ? new Uint8Array(66)
            : element.type === 'INT32'
              ? 0
              : name === 'event_type' || name === 'asset_id'
                ? 'x'
                : null,
      ],
    })),
  });
  void parquet.finish();
  writeFileSync(path, writer.getBytes());
}

const hour = Date.UTC(2026, 10, 24, 10);
const marketA = `0x${'a1'.repeat(32)}`;
const marketB = `0x${'0b'.repeat(32)}`;
// Received in this order: two markets interleaved, as the channel sends them.
const frames: [number, object][] = [
  [
    1000,
    {
      event_type: 'book',
      market: marketA,
      asset_id: '222',
      timestamp: String(hour + 990),
      bids: [
        { price: '0.40', size: '100' },
        { price: '0.45', size: '20.50' },
      ],
      asks: [{ price: '0.60', size: '7' }],
      tick_size: '0.01',
    },
  ],
  [1100, { event_type: 'book', market: marketB, asset_id: '999', timestamp: String(hour + 1090), bids: [{ price: '0.10', size: '1' }], asks: [] }],
  [
    2000,
    {
      event_type: 'price_change',
      market: marketA,
      timestamp: String(hour + 1990),
      price_changes: [
        { asset_id: '222', price: '0.41', size: '3', side: 'BUY', best_bid: '0.45', best_ask: '0.60' },
        { asset_id: '111', price: '0.59', size: '3', side: 'SELL', best_bid: '0.40', best_ask: '0.59' },
      ],
    },
  ],
  [
    2100,
    {
      event_type: 'last_trade_price',
      market: marketB,
      asset_id: '999',
      price: '0.10',
      size: '1.234567',
      side: 'SELL',
      fee_rate_bps: '0',
      transaction_hash: '0xfeed',
      timestamp: String(hour + 2090),
    },
  ],
  [3000, { event_type: 'tick_size_change', market: marketA, asset_id: '222', old_tick_size: '0.01', new_tick_size: '0.001', timestamp: String(hour + 2990) }],
];

test("our hourly file has pmxt v2's Parquet schema, order and compression, and a pmxt notebook's SQL reads the venue's level strings", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'archive-schema-'));
  dirs.push(dir);
  let now = hour + 500;
  const archive = await PolymarketArchive.open({ dir, now: () => now });
  for (const [offset, message] of frames) {
    const text = JSON.stringify(message);
    archive.append(readMarketFrame(text, hour + offset).rows, { text, receivedAt: hour + offset });
  }
  now = hour + 3_600_000 + 1;
  await archive.rollDue();
  const ours = join(dir, 'files', archive.listFiles()[0]!.name);
  const reference = join(dir, 'reference.parquet');
  writeReference(reference);

  const schema = (path: string) =>
    query(
      `SELECT name, type, type_length, repetition_type, converted_type, logical_type, scale, precision FROM parquet_schema('${path}') WHERE name <> 'schema'`,
    );
  const ourSchema = await schema(ours);
  expect(ourSchema).toEqual(await schema(reference));
  expect(ourSchema.map((column) => column.name)).toEqual(pmxtPublished.map(([name]) => name));
  // How DuckDB (and so a pmxt notebook) types the columns.
  const described = await query(`DESCRIBE SELECT * FROM read_parquet('${ours}')`);
  expect(Object.fromEntries(described.map((column) => [column.column_name, column.column_type]))).toMatchObject({
    timestamp_received: 'TIMESTAMP WITH TIME ZONE',
    market: 'BLOB',
    price: 'DECIMAL(9,4)',
    size: 'DECIMAL(18,6)',
    fee_rate_bps: 'USMALLINT',
  });

  // ZSTD everywhere; one row group (pmxt's are 1,048,576 rows, ours too: bench/archive.bench.ts counts them at 25M rows).
  const chunks = await query(`SELECT DISTINCT row_group_id, compression FROM parquet_metadata('${ours}')`);
  expect(chunks).toEqual([{ row_group_id: 0n, compression: 'ZSTD' }]);

  // Sorted by market, asset_id, timestamp_received, not in receive order.
  const order = await query(`SELECT decode(market) AS market, asset_id, epoch_ms(timestamp_received) AS received FROM read_parquet('${ours}')`);
  const sorted = [...order].sort(
    (a, b) =>
      String(a.market).localeCompare(String(b.market)) || String(a.asset_id).localeCompare(String(b.asset_id)) || Number(a.received) - Number(b.received),
  );
  expect(order).toEqual(sorted);
  expect(order[0]).toMatchObject({ market: marketB });

  // A pmxt notebook's level query, on the venue's own strings.
  const levels = await query(
    `SELECT asset_id, bids, asks, json_extract_string(bids, '$[0][0]') AS best_listed_bid FROM read_parquet('${ours}') WHERE event_type = 'book' ORDER BY asset_id`,
  );
  expect(levels).toEqual([
    { asset_id: '222', bids: '[["0.40","100"],["0.45","20.50"]]', asks: '[["0.60","7"]]', best_listed_bid: '0.40' },
    { asset_id: '999', bids: '[["0.10","1"]]', asks: '[]', best_listed_bid: '0.10' },
  ]);
  const trade = await query(
    `SELECT CAST(price AS VARCHAR) AS price, CAST(size AS VARCHAR) AS size, fee_rate_bps, transaction_hash FROM read_parquet('${ours}') WHERE event_type = 'last_trade_price'`,
  );
  expect(trade).toEqual([{ price: '0.1000', size: '1.234567', fee_rate_bps: 0, transaction_hash: '0xfeed' }]);
  await archive.close();
}, 60_000);
