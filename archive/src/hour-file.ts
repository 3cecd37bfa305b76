import { fileWriter } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet-writer';
import { writeIndexes } from 'hyparquet-writer/src/indexes.js';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { DictionaryColumn, Int64Column, TextColumn, widePageRows } from './column-chunks.js';
import type { ColumnBuffer, ColumnChunk, PageLocation, PageSink } from './column-chunks.js';
import type { StagedRow } from './staged-rows.js';
import { zstdCompress, zstdReady } from './zstd.js';

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

/** The event types a pmxt v2 file holds; the channel's other messages are not part of the format. */
export const fileEventTypes = new Set(['book', 'price_change', 'last_trade_price', 'tick_size_change']);

/** True when a condition id fits pmxt's `market` column. */
export function fitsMarketColumn(market: string): boolean {
  if (market === lastFitting) return true;
  const fits = market.length === marketBytes && /^0x[0-9a-fA-F]{64}$/.test(market);
  if (fits) lastFitting = market;
  return fits;
}
/** The last condition id that fitted: a frame's rows, and a busy market's frames, share it. */
let lastFitting: string | undefined;

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

/** pmxt compresses with ZSTD level 9. */
const zstdLevel = 9;

const zstd = (data: Uint8Array) => zstdCompress(data, zstdLevel);

/** A condition id's 66 ASCII bytes per dictionary value. */
const marketBytesOf = (values: string[]) => Buffer.from(values.join(''), 'latin1');
/** Strings as PLAIN byte arrays: a little-endian length before each value's UTF-8 bytes. */
function textBytesOf(values: string[]): Uint8Array {
  const parts: Buffer[] = [];
  for (const value of values) {
    const encoded = Buffer.from(value, 'utf8');
    const length = Buffer.allocUnsafe(4);
    length.writeUInt32LE(encoded.length);
    parts.push(length, encoded);
  }
  return Buffer.concat(parts);
}
/** Unscaled decimals as 4-byte big-endian two's complement (decimal(9,4)). */
function decimal4BytesOf(values: number[]): Uint8Array {
  const bytes = Buffer.alloc(values.length * 4);
  for (let index = 0; index < values.length; index += 1) bytes.writeInt32BE(values[index]! | 0, index * 4);
  return bytes;
}
function int32BytesOf(values: number[]): Uint8Array {
  const bytes = Buffer.alloc(values.length * 4);
  for (let index = 0; index < values.length; index += 1) bytes.writeInt32LE(values[index]!, index * 4);
  return bytes;
}

/**
 * Writes one hourly file in pmxt's v2 format from rows given in file order,
 * one row group of `rowGroupRows` at a time. A group is held column by column
 * in typed arrays, dictionaries and compressed text pages (about 60 bytes a
 * row, whatever the rows hold), and written as it fills: memory never holds
 * an object or a string per row.
 */
export class HourFileWriter {
  private readonly writer: ReturnType<typeof fileWriter>;
  private readonly columns = {
    timestamp_received: new Int64Column('PLAIN', widePageRows),
    timestamp: new Int64Column('PLAIN', widePageRows),
    market: new DictionaryColumn<string>(marketBytesOf, (value) => Buffer.from(value, 'latin1')),
    event_type: new DictionaryColumn<string>(textBytesOf, (value) => value),
    asset_id: new DictionaryColumn<string>(textBytesOf, (value) => value),
    bids: new TextColumn(zstd),
    asks: new TextColumn(zstd),
    price: new DictionaryColumn<number>(decimal4BytesOf, BigInt),
    size: new Int64Column('PLAIN_FIXED'),
    side: new DictionaryColumn<string>(textBytesOf, (value) => value),
    best_bid: new DictionaryColumn<number>(decimal4BytesOf, BigInt),
    best_ask: new DictionaryColumn<number>(decimal4BytesOf, BigInt),
    fee_rate_bps: new DictionaryColumn<number>(int32BytesOf, (value) => value),
    transaction_hash: new TextColumn(zstd),
    old_tick_size: new DictionaryColumn<number>(decimal4BytesOf, BigInt),
    new_tick_size: new DictionaryColumn<number>(decimal4BytesOf, BigInt),
  } satisfies Record<(typeof v2Columns)[number], ColumnBuffer>;
  private readonly sink: PageSink;
  private readonly groups: { columns: ColumnChunk[]; total_byte_size: bigint; num_rows: bigint; total_compressed_size: bigint }[] = [];
  /** Each column chunk's data pages, written as offset indexes after the last row group (a reader reads only the pages of the rows it wants). */
  private readonly offsetIndexes: { chunk: ColumnChunk; offsetIndex: { page_locations: PageLocation[] } }[] = [];
  private count = 0;
  rows = 0;

  private constructor(path: string) {
    this.writer = fileWriter(path);
    this.writer.appendUint32(0x31524150); // PAR1
    this.sink = { writer: this.writer, codec: 'ZSTD', compress: zstd, pages: [] };
  }

  static async create(path: string): Promise<HourFileWriter> {
    await zstdReady();
    return new HourFileWriter(path);
  }

  add(row: StagedRow): void {
    const c = this.columns;
    const i = this.count;
    c.timestamp_received.set(i, BigInt(row.receivedAt));
    c.timestamp.set(i, BigInt(row.timestamp));
    c.market.set(i, row.market);
    c.event_type.set(i, row.eventType);
    c.asset_id.set(i, row.assetId);
    c.bids.set(i, row.bids);
    c.asks.set(i, row.asks);
    c.price.set(i, row.price === null ? null : unscaledNumber(row.price, 4));
    c.size.set(i, row.size === null ? null : unscaledBig(row.size, 6));
    c.side.set(i, row.side);
    c.best_bid.set(i, row.bestBid === null ? null : unscaledNumber(row.bestBid, 4));
    c.best_ask.set(i, row.bestAsk === null ? null : unscaledNumber(row.bestAsk, 4));
    c.fee_rate_bps.set(i, row.feeRateBps === null ? null : Math.round(Number(row.feeRateBps)));
    c.transaction_hash.set(i, row.transactionHash);
    c.old_tick_size.set(i, row.oldTickSize === null ? null : unscaledNumber(row.oldTickSize, 4));
    c.new_tick_size.set(i, row.newTickSize === null ? null : unscaledNumber(row.newTickSize, 4));
    this.count += 1;
    this.rows += 1;
    if (this.count === rowGroupRows) this.writeGroup();
  }

  close(): void {
    if (this.count > 0 || this.rows === 0) this.writeGroup();
    writeIndexes(this.writer, this.offsetIndexes as Parameters<typeof writeIndexes>[1]);
    writeMetadata(this.writer, {
      version: 2,
      created_by: 'predgate archive (pmxt v2 layout)',
      schema: v2Schema,
      num_rows: BigInt(this.rows),
      row_groups: this.groups,
    } as Parameters<typeof writeMetadata>[1]);
    this.writer.appendUint32(0x31524150); // PAR1
    this.writer.finish();
  }

  private writeGroup(): void {
    const start = this.writer.offset;
    const columns = v2Columns.map((name, index) => {
      this.sink.pages = [];
      const chunk = this.columns[name].writeChunk(this.sink, v2Schema[index + 1]!, this.count);
      this.offsetIndexes.push({ chunk, offsetIndex: { page_locations: this.sink.pages } });
      return chunk;
    });
    let uncompressed = 0n;
    for (const column of columns) uncompressed += column.meta_data?.total_uncompressed_size ?? 0n;
    this.groups.push({
      columns,
      total_byte_size: uncompressed,
      num_rows: BigInt(this.count),
      total_compressed_size: BigInt(this.writer.offset - start),
    });
    this.count = 0;
  }
}

/** `unscaled` as a number, for decimal(9,4) columns (always within 2^53). */
export function unscaledNumber(value: string, scale: number): number {
  return plainUnscaled(value, scale) ?? Number(unscaled(value, scale));
}

/** `unscaled` as a bigint, for decimal(18,6). */
export function unscaledBig(value: string, scale: number): bigint {
  const plain = plainUnscaled(value, scale);
  return plain === undefined ? unscaled(value, scale) : BigInt(plain);
}

/**
 * The unscaled integer of a plain decimal text (digits, at most `scale` of
 * them after one dot: nearly every value the socket sends) while it is a safe
 * integer, without building a bigint; undefined for any other text.
 */
function plainUnscaled(value: string, scale: number): number | undefined {
  let result = 0;
  let decimals = -1;
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code === 46 /* . */ && decimals === -1) {
      decimals = 0;
      continue;
    }
    if (code < 48 || code > 57 || decimals === scale) return undefined;
    result = result * 10 + (code - 48);
    if (decimals >= 0) decimals += 1;
  }
  if (value.length === 0 || decimals === 0) return undefined;
  const scaled = result * 10 ** (scale - Math.max(decimals, 0));
  return Number.isSafeInteger(scaled) && result <= Number.MAX_SAFE_INTEGER ? scaled : undefined;
}
