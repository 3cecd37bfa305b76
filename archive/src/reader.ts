import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { MarketRow } from '@predgate/adapter-polymarket/streams';
import { parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import type { AsyncBuffer, FileMetaData } from 'hyparquet';
import { v2Columns } from './hour-file.js';
import type { IndexedRow } from './reconstruct.js';
import { levelsOf } from './staged-rows.js';
import { zstdDecompress, zstdReady } from './zstd.js';

/** An open hour file: its handle and its footer, read once. */
interface OpenFile {
  handle: FileHandle;
  buffer: AsyncBuffer;
  metadata: FileMetaData;
}

/** The columns a book needs (`market` and `asset_id` are known from the hour's index). */
const bookColumns: string[] = v2Columns.filter((column) => column !== 'market' && column !== 'asset_id');

/**
 * Reads closed hours' files by row position: the hour's index says where a
 * token's rows are (the file is sorted by token), and each column chunk's
 * offset index says which pages hold them, so a query reads and decodes those
 * pages alone, not the row group. Files stay open and their footers parsed
 * (a few files at a time). Counting a file's rows (`verify`) goes through DuckDB.
 */
export class HourReader {
  private readonly files = new Map<string, Promise<OpenFile>>();

  private constructor() {}

  static async open(): Promise<HourReader> {
    await zstdReady();
    return new HourReader();
  }

  /** The rows `from` (inclusive) to `to` (exclusive) of an hour file, one token's, numbered from `firstOrdinal` (their position among the token's rows). */
  async rows(path: string, range: { from: number; to: number; firstOrdinal: number }, token: { market: string; assetId: string }): Promise<IndexedRow[]> {
    if (range.to <= range.from) return [];
    const file = await this.file(path);
    const records = await parquetReadObjects({
      file: file.buffer,
      metadata: file.metadata,
      rowStart: range.from,
      rowEnd: range.to,
      columns: bookColumns,
      useOffsetIndex: true,
      compressors: { ZSTD: (input) => zstdDecompress(input) },
    });
    return records.map((record, position) => {
      const row: IndexedRow = {
        row: range.firstOrdinal + position,
        receivedAt: Number(record.timestamp_received),
        timestamp: Number(record.timestamp),
        market: token.market,
        eventType: String(record.event_type) as MarketRow['eventType'],
        assetId: token.assetId,
      };
      if (record.bids !== null && record.bids !== undefined) row.bids = levelsOf(String(record.bids));
      if (record.asks !== null && record.asks !== undefined) row.asks = levelsOf(String(record.asks));
      const price = decimalText(record.price, 4);
      if (price !== undefined) row.price = price;
      const size = decimalText(record.size, 6);
      if (size !== undefined) row.size = size;
      if (record.side === 'BUY' || record.side === 'SELL') row.side = record.side;
      const bestBid = decimalText(record.best_bid, 4);
      if (bestBid !== undefined) row.bestBid = bestBid;
      const bestAsk = decimalText(record.best_ask, 4);
      if (bestAsk !== undefined) row.bestAsk = bestAsk;
      if (record.fee_rate_bps !== null && record.fee_rate_bps !== undefined) row.feeRateBps = String(record.fee_rate_bps);
      if (record.transaction_hash !== null && record.transaction_hash !== undefined) row.transactionHash = String(record.transaction_hash);
      const oldTickSize = decimalText(record.old_tick_size, 4);
      if (oldTickSize !== undefined) row.oldTickSize = oldTickSize;
      const newTickSize = decimalText(record.new_tick_size, 4);
      if (newTickSize !== undefined) row.newTickSize = newTickSize;
      return row;
    });
  }

  async countRows(path: string): Promise<number> {
    const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    let connection: DuckDBConnection | undefined;
    try {
      connection = await instance.connect();
      const [record] = (await connection.runAndReadAll('SELECT count(*) AS n FROM read_parquet($1)', [path])).getRowObjectsJS();
      return Number(record!.n);
    } finally {
      connection?.closeSync();
      instance.closeSync();
    }
  }

  /** Forgets a file (a republished hour is a new file under the same name). */
  async forget(path: string): Promise<void> {
    const file = this.files.get(path);
    this.files.delete(path);
    await (await file?.catch(() => undefined))?.handle.close();
  }

  async close(): Promise<void> {
    for (const path of [...this.files.keys()]) await this.forget(path);
  }

  private file(path: string): Promise<OpenFile> {
    let file = this.files.get(path);
    if (file) {
      this.files.delete(path);
      this.files.set(path, file);
      return file;
    }
    file = openFile(path);
    file.catch(() => this.files.delete(path));
    this.files.set(path, file);
    if (this.files.size > openFiles) void this.forget(this.files.keys().next().value!);
    return file;
  }
}

/** Hour files kept open: a range can cross a few hours; each costs a handle and its footer. */
const openFiles = 8;

async function openFile(path: string): Promise<OpenFile> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const buffer: AsyncBuffer = {
      byteLength: size,
      async slice(start, end = size) {
        const bytes = new Uint8Array(end - start);
        let read = 0;
        while (read < bytes.length) {
          const { bytesRead } = await handle.read(bytes, read, bytes.length - read, start + read);
          if (bytesRead === 0) throw new Error(`${path} ends at ${start + read}, before ${end}`);
          read += bytesRead;
        }
        return bytes.buffer;
      },
    };
    return { handle, buffer, metadata: physicalValues(await parquetMetadataAsync(buffer)) };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * The footer with the decimal and timestamp annotations left off the columns,
 * so values come as stored (unscaled big-endian bytes, epoch milliseconds) and
 * are turned into text exactly: a decimal(18,6) does not fit a float.
 */
function physicalValues(metadata: FileMetaData): FileMetaData {
  return {
    ...metadata,
    schema: metadata.schema.map((element) =>
      element.converted_type === 'DECIMAL' || element.converted_type === 'TIMESTAMP_MILLIS'
        ? { ...element, converted_type: undefined, logical_type: undefined }
        : element,
    ),
  };
}

/** An unscaled decimal's text with `scale` digits after the point ("0.4000"), as DuckDB casts a decimal to text. */
export function decimalText(value: unknown, scale: number): string | undefined {
  if (!(value instanceof Uint8Array)) return undefined;
  let unscaled = 0n;
  for (const byte of value) unscaled = (unscaled << 8n) | BigInt(byte);
  if (value.length > 0 && value[0]! >= 0x80) unscaled -= 1n << BigInt(value.length * 8);
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
}
