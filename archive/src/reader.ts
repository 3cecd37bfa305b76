import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { MarketRow } from '@predgate/adapter-polymarket/streams';
import { parquetMetadata, parquetReadObjects, readOffsetIndex } from 'hyparquet';
import type { AsyncBuffer, FileMetaData, ParquetReadOptions } from 'hyparquet';
import type { v2Columns } from './hour-file.js';
import { decodesChunk, readChunkRows } from './page-rows.js';
import type { ChunkPages, ColumnValue, PageLocation } from './page-rows.js';
import type { IndexedRow } from './reconstruct.js';
import { levelsOf } from './staged-rows.js';
import { zstdDecompress, zstdReady } from './zstd.js';

/** A row group's book columns that have an offset index, by name: where their pages are, and their dictionaries once read. */
type GroupPages = Record<string, ChunkPages>;

/** An open hour file: its descriptor, its footer (read once) and where each row group starts. */
interface OpenFile {
  fd: number;
  path: string;
  buffer: AsyncBuffer;
  metadata: FileMetaData;
  groupStarts: number[];
}

/**
 * The columns replaying a book reads (what `BookState.apply` looks at):
 * `market` and `asset_id` are known from the hour's index, and the rest
 * (best bid and ask, fee rate, transaction hash, old tick size) never change
 * a book, so their pages are neither read nor decoded.
 */
const bookColumns: string[] = ['timestamp_received', 'timestamp', 'event_type', 'bids', 'asks', 'price', 'size', 'side', 'new_tick_size'] satisfies Array<
  (typeof v2Columns)[number]
>;

/**
 * Reads closed hours' files by row position: the hour's index says where a
 * token's rows are (the file is sorted by token), and each column chunk's
 * offset index says which pages hold them, so a query reads those pages
 * alone, not the row group, and decodes only its rows of them. Files stay
 * open with their footers parsed (a few files at a time), and the offset
 * indexes and dictionaries of the row groups read lately stay parsed (a few
 * dozen groups), so a query reads only its pages.
 * Counting a file's rows (`verify`) goes through DuckDB.
 */
export class HourReader {
  private readonly files = new Map<string, OpenFile>();
  /** Page locations of recently read row groups, by `path` and group, least recent first. */
  private readonly groupPages = new Map<string, GroupPages>();

  private constructor() {}

  static async open(): Promise<HourReader> {
    await zstdReady();
    return new HourReader();
  }

  /** The rows `from` (inclusive) to `to` (exclusive) of an hour file, one token's, numbered from `firstOrdinal` (their position among the token's rows), with the fields a book is replayed from. */
  async rows(path: string, range: { from: number; to: number; firstOrdinal: number }, token: { market: string; assetId: string }): Promise<IndexedRow[]> {
    if (range.to <= range.from) return [];
    const file = this.file(path);
    const groups = groupsOf(file, range).map((group) => ({ group, pages: this.pagesOf(path, file, group) }));
    const records = groups.every(({ pages }) => bookColumns.every((column) => pages[column] && decodesChunk(pages[column])))
      ? this.decodedRows(file, groups, range)
      : await hyparquetRows(file, groups, range);
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
      const newTickSize = decimalText(record.new_tick_size, 4);
      if (newTickSize !== undefined) row.newTickSize = newTickSize;
      return row;
    });
  }

  /**
   * The rows decoded here, from the pages holding them: only the rows asked for
   * become values (see `readChunkRows`), and each row group's dictionaries
   * stay decoded with its page locations.
   */
  private decodedRows(file: OpenFile, groups: { group: number; pages: GroupPages }[], range: { from: number; to: number }): Record<string, ColumnValue>[] {
    const columns: Record<string, ColumnValue[]> = {};
    const read = (position: number, length: number) => new Uint8Array(readBytes(file.fd, file.path, position, position + length));
    for (const column of bookColumns) {
      const values: ColumnValue[] = new Array<ColumnValue>(range.to - range.from);
      for (const { group, pages } of groups) {
        const start = file.groupStarts[group]!;
        const groupRows = Number(file.metadata.row_groups[group]!.num_rows);
        const from = Math.max(range.from, start) - start;
        const to = Math.min(range.to, start + groupRows) - start;
        readChunkRows(pages[column]!, read, { from, to, groupRows }, decompressed, values, start + from - range.from);
      }
      columns[column] = values;
    }
    const records: Record<string, ColumnValue>[] = [];
    for (let row = 0; row < range.to - range.from; row += 1) {
      const record: Record<string, ColumnValue> = {};
      for (const column of bookColumns) record[column] = columns[column]![row]!;
      records.push(record);
    }
    return records;
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
  forget(path: string): Promise<void> {
    const file = this.files.get(path);
    this.files.delete(path);
    for (const key of [...this.groupPages.keys()]) if (key.startsWith(`${path}\n`)) this.groupPages.delete(key);
    if (file) closeSync(file.fd);
    return Promise.resolve();
  }

  async close(): Promise<void> {
    for (const path of [...this.files.keys()]) await this.forget(path);
  }

  private file(path: string): OpenFile {
    let file = this.files.get(path);
    if (file) {
      this.files.delete(path);
    } else {
      file = openFile(path);
      if (this.files.size >= openFiles) void this.forget(this.files.keys().next().value!);
    }
    this.files.set(path, file);
    return file;
  }

  /** A row group's page locations, parsed from its offset indexes on first use (one read: a file's offset indexes lie together). */
  private pagesOf(path: string, file: OpenFile, group: number): GroupPages {
    const key = `${path}\n${group}`;
    let pages = this.groupPages.get(key);
    if (pages) {
      this.groupPages.delete(key);
    } else {
      pages = readGroupPages(file, group);
      if (this.groupPages.size >= parsedGroups) this.groupPages.delete(this.groupPages.keys().next().value!);
    }
    this.groupPages.set(key, pages);
    return pages;
  }
}

/** Hour files kept open: a range can cross a few hours; each costs a descriptor and its footer. */
const openFiles = 8;

/**
 * Row groups whose page locations stay parsed: about 130 KB each (4,096-row
 * pages of a million-row group, 9 columns), so at most about 8 MB, and
 * enough for every group of a 64-million-row hour.
 */
const parsedGroups = 64;

/**
 * Reads are synchronous: a query reads a few dozen small pieces (pages of a
 * few kilobytes, dictionaries), each a `pread` of bytes the page cache
 * nearly always holds, which costs less than a round trip through libuv's
 * thread pool (four threads shared with every other file and DNS call).
 */
function openFile(path: string): OpenFile {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const buffer: AsyncBuffer = {
      byteLength: size,
      slice: (start, end = size) => readBytes(fd, path, start, end),
    };
    const tail = new DataView(readBytes(fd, path, Math.max(0, size - 8), size));
    const footerBytes = tail.byteLength === 8 ? tail.getUint32(0, true) : 0;
    const metadata = physicalValues(parquetMetadata(readBytes(fd, path, Math.max(0, size - 8 - footerBytes), size)));
    const groupStarts: number[] = [];
    let start = 0;
    for (const group of metadata.row_groups) {
      groupStarts.push(start);
      start += Number(group.num_rows);
    }
    return { fd, path, buffer, metadata, groupStarts };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function readBytes(fd: number, path: string, start: number, end: number): ArrayBuffer {
  const bytes = new Uint8Array(end - start);
  let read = 0;
  while (read < bytes.length) {
    const count = readSync(fd, bytes, read, bytes.length - read, start + read);
    if (count === 0) throw new Error(`${path} ends at ${start + read}, before ${end}`);
    read += count;
  }
  return bytes.buffer;
}

/**
 * The rows read through hyparquet, which decodes whole pages: for files whose
 * chunks this reader does not decode itself (those written before the
 * archive's writer wrote data pages v2 in PLAIN or dictionary coding).
 */
async function hyparquetRows(
  file: OpenFile,
  groups: { group: number; pages: GroupPages }[],
  range: { from: number; to: number },
): Promise<Record<string, unknown>[]> {
  // hyparquet's planner takes offset indexes already parsed (sparse: only the groups the rows are in).
  const pageLocationsByGroup: Record<string, PageLocation[]>[] = [];
  for (const { group, pages } of groups) pageLocationsByGroup[group] = Object.fromEntries(Object.entries(pages).map(([name, chunk]) => [name, chunk.pages]));
  const options: ParquetReadOptions & { pageLocationsByGroup: Record<string, PageLocation[]>[] } = {
    file: file.buffer,
    metadata: file.metadata,
    rowStart: range.from,
    rowEnd: range.to,
    columns: bookColumns,
    useOffsetIndex: true,
    pageLocationsByGroup,
    compressors: { ZSTD: (input, size) => decompressed(input, size) },
  };
  return parquetReadObjects(options);
}

/** A ZSTD block decompressed, checked against the size its page header gives. */
function decompressed(input: Uint8Array, size: number): Uint8Array {
  const output = zstdDecompress(input);
  if (output.length !== size) throw new Error(`a ZSTD page decompressed to ${output.length} bytes where its header says ${size}`);
  return output;
}

/** The row groups holding any of the rows `from` to `to`. */
function groupsOf(file: OpenFile, range: { from: number; to: number }): number[] {
  const groups: number[] = [];
  file.groupStarts.forEach((start, group) => {
    const end = start + Number(file.metadata.row_groups[group]!.num_rows);
    if (start < range.to && end > range.from) groups.push(group);
  });
  return groups;
}

/** The page locations of a row group's book columns; a column without an offset index is left out (hyparquet then reads its whole chunk). */
function readGroupPages(file: OpenFile, group: number): GroupPages {
  const chunks = file.metadata.row_groups[group]!.columns.filter(
    (chunk) =>
      chunk.meta_data && bookColumns.includes(chunk.meta_data.path_in_schema[0]!) && chunk.offset_index_offset !== undefined && chunk.offset_index_length,
  );
  const pages: GroupPages = {};
  if (chunks.length === 0) return pages;
  const elements = new Map(file.metadata.schema.map((element) => [element.name, element]));
  const from = Math.min(...chunks.map((chunk) => Number(chunk.offset_index_offset)));
  const to = Math.max(...chunks.map((chunk) => Number(chunk.offset_index_offset) + chunk.offset_index_length!));
  const view = new DataView(file.buffer.slice(from, to) as ArrayBuffer);
  for (const chunk of chunks) {
    const name = chunk.meta_data!.path_in_schema.join('.');
    pages[name] = {
      meta: chunk.meta_data!,
      element: elements.get(name)!,
      pages: readOffsetIndex({ view, offset: Number(chunk.offset_index_offset) - from }).page_locations,
    };
  }
  return pages;
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
  const unscaled = fitsNumber(value) ? unscaledNumberOf(value) : unscaledBigOf(value);
  const negative = unscaled < 0;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
}

/** True when a big-endian two's complement value is within a float's exact integers: up to 6 bytes, or 8 whose first two are zero (every size the socket sends). */
function fitsNumber(value: Uint8Array): boolean {
  return value.length <= 6 || (value.length === 8 && value[0] === 0 && value[1] === 0);
}

function unscaledNumberOf(value: Uint8Array): number {
  let unscaled = 0;
  for (const byte of value) unscaled = unscaled * 256 + byte;
  return value.length <= 6 && value.length > 0 && value[0]! >= 0x80 ? unscaled - 2 ** (value.length * 8) : unscaled;
}

function unscaledBigOf(value: Uint8Array): bigint {
  let unscaled = 0n;
  for (const byte of value) unscaled = (unscaled << 8n) | BigInt(byte);
  return value.length > 0 && value[0]! >= 0x80 ? unscaled - (1n << BigInt(value.length * 8)) : unscaled;
}
