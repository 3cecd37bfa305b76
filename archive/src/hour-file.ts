import { compress, init as initZstd } from '@bokuweb/zstd-wasm';
import { ParquetWriter } from 'hyparquet-writer';
import { fileWriter } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet-writer';
import type { StagedRow } from './staged-rows.js';

/**
 * pmxt's v2 hourly file, column for column (archive.pmxt.dev/docs/v2-data-overview,
 * and two real files audited by third parties): the Arrow types pmxt publishes,
 * stored the way pyarrow (pmxt's writer: its row groups are "pyarrow default")
 * stores them. Times are INT64 TIMESTAMP(MILLIS, UTC); `market` a 66-byte fixed
 * binary; decimals fixed-length big-endian (4 bytes for precision 9, 8 for 18);
 * `fee_rate_bps` INT32 annotated unsigned 16-bit; the first five columns required.
 */
export const v2Columns = [
  'timestamp_received',
  'timestamp',
  'market',
  'event_type',
  'asset_id',
  'bids',
  'asks',
  'price',
  'size',
  'side',
  'best_bid',
  'best_ask',
  'fee_rate_bps',
  'transaction_hash',
  'old_tick_size',
  'new_tick_size',
] as const;

/** pmxt's rows per row group (pyarrow's default, 1024 × 1024). */
export const rowGroupRows = 1_048_576;

/** pmxt's `market`: a condition id as ASCII `0x` + 64 hex digits. */
export const marketBytes = 66;

const timestamp: SchemaElement = {
  name: '',
  type: 'INT64',
  repetition_type: 'REQUIRED',
  converted_type: 'TIMESTAMP_MILLIS',
  logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
};
const text = (required: boolean): SchemaElement => ({
  name: '',
  type: 'BYTE_ARRAY',
  repetition_type: required ? 'REQUIRED' : 'OPTIONAL',
  converted_type: 'UTF8',
  logical_type: { type: 'STRING' },
});
const decimal = (precision: number, scale: number, bytes: number): SchemaElement => ({
  name: '',
  type: 'FIXED_LEN_BYTE_ARRAY',
  type_length: bytes,
  repetition_type: 'OPTIONAL',
  converted_type: 'DECIMAL',
  precision,
  scale,
  logical_type: { type: 'DECIMAL', precision, scale },
});
const price = decimal(9, 4, 4);

const columnTypes: Record<(typeof v2Columns)[number], SchemaElement> = {
  timestamp_received: timestamp,
  timestamp,
  market: { name: '', type: 'FIXED_LEN_BYTE_ARRAY', type_length: marketBytes, repetition_type: 'REQUIRED' },
  event_type: text(true),
  asset_id: text(true),
  bids: text(false),
  asks: text(false),
  price,
  size: decimal(18, 6, 8),
  side: text(false),
  best_bid: price,
  best_ask: price,
  fee_rate_bps: {
    name: '',
    type: 'INT32',
    repetition_type: 'OPTIONAL',
    converted_type: 'UINT_16',
    logical_type: { type: 'INTEGER', bitWidth: 16, isSigned: false },
  },
  transaction_hash: text(false),
  old_tick_size: price,
  new_tick_size: price,
};

export const v2Schema: SchemaElement[] = [{ name: 'schema', num_children: v2Columns.length }, ...v2Columns.map((name) => ({ ...columnTypes[name], name }))];

/** pmxt delta-encodes its integer columns and dictionary-encodes the rest. */
const deltaColumns = new Set<string>(['timestamp_received', 'timestamp', 'fee_rate_bps']);

/** The event types a pmxt v2 file holds; the channel's other messages are not part of the format. */
export const fileEventTypes = new Set(['book', 'price_change', 'last_trade_price', 'tick_size_change']);

/** True when a condition id fits pmxt's `market` column. */
export function fitsMarketColumn(market: string): boolean {
  return market.length === marketBytes && /^0x[0-9a-fA-F]{64}$/.test(market);
}

/**
 * The unscaled integer of a decimal text at `scale` digits, exactly (no float):
 * "0.40" at scale 4 is 4000n. Digits past `scale` are rounded half away from zero.
 */
export function unscaled(value: string, scale: number): bigint {
  const exponent = /e/i.exec(value);
  if (exponent) return unscaled(expandExponent(value), scale);
  const negative = value.startsWith('-');
  const digits = negative ? value.slice(1) : value;
  const dot = digits.indexOf('.');
  const whole = dot === -1 ? digits : digits.slice(0, dot);
  const fraction = dot === -1 ? '' : digits.slice(dot + 1);
  let result = BigInt((whole || '0') + fraction.slice(0, scale).padEnd(scale, '0'));
  if (fraction.length > scale && fraction.charCodeAt(scale) >= 53 /* '5' */) result += 1n;
  return negative ? -result : result;
}

function expandExponent(value: string): string {
  // Exponents are rare on the socket (never seen for prices); Number's decimal text is exact for them.
  return Number(value).toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

let zstdReady: Promise<void> | undefined;

/**
 * Writes one hourly file in pmxt's v2 format from rows given in file order,
 * one row group of `rowGroupRows` at a time (memory holds one group).
 */
export class HourFileWriter {
  private readonly writer: ParquetWriter;
  private columns = emptyColumns();
  private count = 0;
  rows = 0;

  private constructor(path: string) {
    this.writer = new ParquetWriter({
      writer: fileWriter(path),
      schema: v2Schema,
      codec: 'ZSTD',
      // pmxt compresses with ZSTD level 9.
      compressors: { ZSTD: (input: Uint8Array) => compress(input, 9) },
      createdBy: 'predgate archive (pmxt v2 layout)',
    });
  }

  static async create(path: string): Promise<HourFileWriter> {
    zstdReady ??= initZstd();
    await zstdReady;
    return new HourFileWriter(path);
  }

  add(row: StagedRow): void {
    const c = this.columns;
    const i = this.count;
    c.timestamp_received[i] = BigInt(row.receivedAt);
    c.timestamp[i] = BigInt(row.timestamp);
    c.market.push(Buffer.from(row.market, 'latin1'));
    c.event_type.push(row.eventType);
    c.asset_id.push(row.assetId);
    c.bids.push(row.bids);
    c.asks.push(row.asks);
    c.price.push(row.price === null ? null : unscaled(row.price, 4));
    c.size.push(row.size === null ? null : unscaled(row.size, 6));
    c.side.push(row.side);
    c.best_bid.push(row.bestBid === null ? null : unscaled(row.bestBid, 4));
    c.best_ask.push(row.bestAsk === null ? null : unscaled(row.bestAsk, 4));
    c.fee_rate_bps.push(row.feeRateBps === null ? null : Math.round(Number(row.feeRateBps)));
    c.transaction_hash.push(row.transactionHash);
    c.old_tick_size.push(row.oldTickSize === null ? null : unscaled(row.oldTickSize, 4));
    c.new_tick_size.push(row.newTickSize === null ? null : unscaled(row.newTickSize, 4));
    this.count += 1;
    this.rows += 1;
    if (this.count === rowGroupRows) this.writeGroup();
  }

  close(): void {
    if (this.count > 0 || this.rows === 0) this.writeGroup();
    void this.writer.finish();
  }

  private writeGroup(): void {
    const n = this.count;
    void this.writer.write({
      rowGroupSize: rowGroupRows,
      columnData: v2Columns.map((name) => {
        const values = this.columns[name];
        const data = ArrayBuffer.isView(values) ? (values as BigInt64Array).subarray(0, n) : values;
        return deltaColumns.has(name) ? { name, data, encoding: 'DELTA_BINARY_PACKED' as const } : { name, data };
      }),
    });
    this.columns = emptyColumns();
    this.count = 0;
  }
}

function emptyColumns() {
  return {
    timestamp_received: new BigInt64Array(rowGroupRows),
    timestamp: new BigInt64Array(rowGroupRows),
    market: [] as Uint8Array[],
    event_type: [] as string[],
    asset_id: [] as string[],
    bids: [] as (string | null)[],
    asks: [] as (string | null)[],
    price: [] as (bigint | null)[],
    size: [] as (bigint | null)[],
    side: [] as (string | null)[],
    best_bid: [] as (bigint | null)[],
    best_ask: [] as (bigint | null)[],
    fee_rate_bps: [] as (number | null)[],
    transaction_hash: [] as (string | null)[],
    old_tick_size: [] as (bigint | null)[],
    new_tick_size: [] as (bigint | null)[],
  };
}
