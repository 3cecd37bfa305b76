import { ByteWriter } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet-writer';
import { writePageHeader } from 'hyparquet-writer/src/datapage.js';
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js';
import type { writeMetadata } from 'hyparquet-writer/src/metadata.js';

type FileMetaData = Parameters<typeof writeMetadata>[1];
export type ColumnChunk = FileMetaData['row_groups'][number]['columns'][number];

/** Where a data page starts, its size with its header, and its first row in the row group: one entry of a column chunk's offset index. */
export interface PageLocation {
  offset: bigint;
  compressed_page_size: number;
  first_row_index: bigint;
}

/** Where pages go: the file writer, how a page's data is compressed, and where the data pages of the chunk being written are noted. */
export interface PageSink {
  writer: Parameters<typeof writePageHeader>[0];
  compress(data: Uint8Array): Uint8Array;
  codec: 'ZSTD';
  pages: PageLocation[];
}

/**
 * Rows per data page; a byte-array page also ends once it holds about this
 * many bytes. Small enough that a reader holding the offset index decodes
 * little more than one token's rows (a `since` reads a few hundred), large
 * enough that ZSTD still finds the repeats of sorted rows.
 */
const pageRows = 4096;
const pageBytes = 64 * 1024;

/**
 * Rows per page of the two times: required PLAIN 64-bit values, which ZSTD
 * compresses by what repeats across many rows, so four times the rows cost
 * far fewer bytes (a 2M-row hour: 1.46 -> 1.2 B/row each, the file 7.56 ->
 * 7.04), and a page without definition levels still decodes as one typed
 * array (a `since` measured no slower). `size` keeps small pages: it is
 * optional, and a reader assembles every row of a page with its definition
 * levels, which at this size doubled a `since`'s CPU time.
 */
export const widePageRows = 16_384;

/**
 * One column of a row group, held in typed arrays (never an object per row),
 * written as its column chunk when the group is full. Dictionary columns keep
 * each distinct value once and a 32-bit index per row; plain columns keep
 * their values' bytes or numbers.
 */
export interface ColumnBuffer {
  /** Writes the column chunk of the group's `rows` rows, then empties the buffer for the next group. */
  writeChunk(sink: PageSink, element: SchemaElement, rows: number): ColumnChunk;
}

/** Distinct values once, an index per row (-1: null). Statistics come from the distinct values alone. */
export class DictionaryColumn<V extends string | number> implements ColumnBuffer {
  private ids = new Map<V, number>();
  private values: V[] = [];
  private indexes = new Int32Array(initialRows);
  private last: V | undefined;
  private lastId = -1;

  constructor(
    /** A dictionary value's bytes as the column stores them (PLAIN). */
    private readonly plainBytes: (values: V[], element: SchemaElement) => Uint8Array,
    /** A value as hyparquet-writer's statistics take it. */
    private readonly statistic: (value: V) => unknown,
  ) {}

  set(row: number, value: V | null): void {
    if (row === this.indexes.length) this.indexes = grown(this.indexes);
    if (value === null) {
      this.indexes[row] = -1;
      return;
    }
    // Rows arrive sorted, so most values repeat the previous row's.
    if (value !== this.last) {
      let id = this.ids.get(value);
      if (id === undefined) {
        const owned = (typeof value === 'string' ? ownString(value) : value) as V;
        id = this.values.length;
        this.ids.set(owned, id);
        this.values.push(owned);
      }
      this.last = value;
      this.lastId = id;
    }
    this.indexes[row] = this.lastId;
  }

  writeChunk(sink: PageSink, element: SchemaElement, rows: number): ColumnChunk {
    const start = sink.writer.offset;
    const required = element.repetition_type === 'REQUIRED';
    let uncompressed = 0;
    let nulls = 0;
    let min: V | undefined;
    let max: V | undefined;
    for (const value of this.values) {
      if (min === undefined || value < min) min = value;
      if (max === undefined || value > max) max = value;
    }
    const dictionaryOffset = sink.writer.offset;
    uncompressed += writePage(sink, { type: 'DICTIONARY_PAGE', count: this.values.length }, undefined, this.plainBytes(this.values, element));
    const dataOffset = sink.writer.offset;
    const bitWidth = Math.max(1, Math.ceil(Math.log2(this.values.length + 1)));
    let pages = 0;
    for (let from = 0; from < rows; from += pageRows) {
      const to = Math.min(rows, from + pageRows);
      const slice = this.indexes.subarray(from, to);
      const present = required ? slice : slice.filter((index) => index >= 0);
      nulls += slice.length - present.length;
      const data = new ByteWriter(present.length * 2 + 16);
      data.appendUint8(bitWidth);
      writeRleBitPackedHybrid(data, present, bitWidth);
      uncompressed += writePage(
        sink,
        { type: 'DATA_PAGE_V2', count: slice.length, nulls: slice.length - present.length, encoding: 'RLE_DICTIONARY', firstRow: from },
        required ? undefined : definitionLevels(slice, (index) => index >= 0),
        data.getBytes(),
      );
      pages += 1;
    }
    const chunk = columnChunk(element, {
      start,
      end: sink.writer.offset,
      rows,
      uncompressed,
      dataOffset,
      dictionaryOffset,
      encodings: required ? ['PLAIN', 'RLE_DICTIONARY'] : ['PLAIN', 'RLE', 'RLE_DICTIONARY'],
      encodingStats: [
        { page_type: 'DICTIONARY_PAGE', encoding: 'PLAIN', count: 1 },
        { page_type: 'DATA_PAGE_V2', encoding: 'RLE_DICTIONARY', count: pages },
      ],
      statistics: {
        null_count: BigInt(nulls),
        ...(min !== undefined ? { min_value: this.statistic(min), max_value: this.statistic(max!) } : {}),
      },
    });
    this.ids = new Map();
    this.values = [];
    this.last = undefined;
    this.lastId = -1;
    return chunk;
  }
}

/**
 * Strings stored PLAIN (levels, transaction hashes: mostly null, rarely
 * repeated), encoded and compressed a page at a time as rows arrive: a group
 * holds its compressed pages, never its strings (a row's text can share the
 * memory of far more than itself, see `ownString`).
 */
export class TextColumn implements ColumnBuffer {
  private pages: SealedPage[] = [];
  private data = Buffer.allocUnsafe(64 * 1024);
  private dataBytes = 0;
  private present = new Uint8Array(pageRows);
  private pageCount = 0;
  private pageNulls = 0;
  /** Rows of the group in pages already sealed: the current page's first row. */
  private sealedRows = 0;
  private min: string | undefined;
  private max: string | undefined;

  constructor(private readonly compress: (data: Uint8Array) => Uint8Array) {}

  set(_row: number, value: string | null): void {
    if (value === null) {
      this.present[this.pageCount] = 0;
      this.pageNulls += 1;
    } else {
      this.present[this.pageCount] = 1;
      const needed = this.dataBytes + 4 + value.length * 3;
      if (needed > this.data.length) {
        const larger = Buffer.allocUnsafe(Math.max(this.data.length * 2, needed));
        this.data.copy(larger, 0, 0, this.dataBytes);
        this.data = larger;
      }
      const length = this.data.write(value, this.dataBytes + 4, 'utf8');
      this.data.writeUInt32LE(length, this.dataBytes);
      this.dataBytes += 4 + length;
      if (this.min === undefined || value < this.min) this.min = ownString(value);
      if (this.max === undefined || value > this.max) this.max = ownString(value);
    }
    this.pageCount += 1;
    if (this.pageCount === pageRows || this.dataBytes >= pageBytes) this.seal();
  }

  writeChunk(sink: PageSink, element: SchemaElement, rows: number): ColumnChunk {
    if (this.pageCount > 0 || this.pages.length === 0) this.seal();
    const start = sink.writer.offset;
    let uncompressed = 0;
    let nulls = 0;
    for (const page of this.pages) {
      uncompressed += writeSealedPage(sink, page);
      nulls += page.nulls;
    }
    const chunk = columnChunk(element, {
      start,
      end: sink.writer.offset,
      rows,
      uncompressed,
      dataOffset: start,
      encodings: ['PLAIN', 'RLE'],
      encodingStats: [{ page_type: 'DATA_PAGE_V2', encoding: 'PLAIN', count: this.pages.length }],
      // Byte-array bounds are truncated by the metadata writer; levels are long and never filtered on.
      statistics: { null_count: BigInt(nulls), ...(this.min !== undefined ? { min_value: this.min, max_value: this.max } : {}) },
    });
    this.pages = [];
    this.sealedRows = 0;
    this.min = undefined;
    this.max = undefined;
    return chunk;
  }

  /** Closes the current page: its levels and compressed data are kept, its buffers reused. */
  private seal(): void {
    const count = this.pageCount;
    this.pages.push({
      count,
      firstRow: this.sealedRows,
      nulls: this.pageNulls,
      encoding: 'PLAIN',
      levels: definitionLevels(this.present.subarray(0, count), (mark) => mark === 1),
      rawBytes: this.dataBytes,
      compressed: this.compress(this.data.subarray(0, this.dataBytes)),
    });
    this.sealedRows += count;
    this.pageCount = 0;
    this.pageNulls = 0;
    this.dataBytes = 0;
    // A page of long levels grows the buffer; the next page starts small again.
    if (this.data.length > 4 * pageBytes) this.data = Buffer.allocUnsafe(64 * 1024);
  }
}

/**
 * A copy of a string that shares no memory with the text it was cut from.
 * V8 keeps a substring (a field split from a line read from a stream) as a
 * view of its whole parent, so one kept value would keep the whole 64 KiB
 * chunk it came from; values kept past their row are copied.
 */
export function ownString(value: string): string {
  return Buffer.from(value, 'utf8').toString('utf8');
}

/** 64-bit integers (times, unscaled sizes) and a null mark per row. */
export class Int64Column implements ColumnBuffer {
  private values = new BigInt64Array(initialRows);
  private present = new Uint8Array(initialRows);

  constructor(
    /**
     * PLAIN little-endian for times, PLAIN big-endian fixed bytes for
     * decimals. Times are not DELTA_BINARY_PACKED: sorted by token, every
     * token's first row jumps back in time, and one jump in a block of 128
     * deltas widens all of them (2.5 B/row per column after ZSTD, against
     * 1.35 for PLAIN, which ZSTD compresses well).
     */
    private readonly encoding: 'PLAIN' | 'PLAIN_FIXED',
    private readonly rowsPerPage = pageRows,
  ) {}

  set(row: number, value: bigint | null): void {
    if (row === this.values.length) {
      this.values = grown(this.values);
      this.present = grown(this.present);
    }
    this.present[row] = value === null ? 0 : 1;
    if (value !== null) this.values[row] = value;
  }

  writeChunk(sink: PageSink, element: SchemaElement, rows: number): ColumnChunk {
    const start = sink.writer.offset;
    const required = element.repetition_type === 'REQUIRED';
    const encoding = 'PLAIN';
    let uncompressed = 0;
    let nulls = 0;
    let pages = 0;
    let min: bigint | undefined;
    let max: bigint | undefined;
    for (let from = 0; from < rows; from += this.rowsPerPage) {
      const to = Math.min(rows, from + this.rowsPerPage);
      const present = this.present.subarray(from, to);
      const values = required ? this.values.subarray(from, to) : this.values.subarray(from, to).filter((_, index) => present[index] === 1);
      for (const value of values) {
        if (min === undefined || value < min) min = value;
        if (max === undefined || value > max) max = value;
      }
      const pageNulls = to - from - values.length;
      nulls += pageNulls;
      let data: Uint8Array;
      if (this.encoding === 'PLAIN_FIXED') {
        const width = element.type_length!;
        const bytes = Buffer.alloc(values.length * width);
        for (let index = 0; index < values.length; index += 1) bytes.writeBigInt64BE(values[index]!, index * width + width - 8);
        data = bytes;
      } else {
        const bytes = Buffer.alloc(values.length * 8);
        for (let index = 0; index < values.length; index += 1) bytes.writeBigInt64LE(values[index]!, index * 8);
        data = bytes;
      }
      uncompressed += writePage(
        sink,
        { type: 'DATA_PAGE_V2', count: to - from, nulls: pageNulls, encoding, firstRow: from },
        required ? undefined : definitionLevels(present, (mark) => mark === 1),
        data,
      );
      pages += 1;
    }
    return columnChunk(element, {
      start,
      end: sink.writer.offset,
      rows,
      uncompressed,
      dataOffset: start,
      encodings: required ? [encoding] : [encoding, 'RLE'],
      encodingStats: [{ page_type: 'DATA_PAGE_V2', encoding, count: pages }],
      statistics: { null_count: BigInt(nulls), ...(min !== undefined ? { min_value: min, max_value: max } : {}) },
    });
  }
}

/** Columns start small (an hour can hold a few rows) and double up to a row group's rows. */
const initialRows = 4096;

function grown<T extends Int32Array | BigInt64Array | Uint8Array>(array: T): T {
  const larger = new (array.constructor as new (length: number) => T)(array.length * 2);
  larger.set(array as never);
  return larger;
}

/** Definition levels of one page (1 present, 0 null), RLE/bit-packed as data page v2 stores them. */
function definitionLevels<T>(values: ArrayLike<T>, isPresent: (value: T) => boolean): Uint8Array {
  const levels = new Uint8Array(values.length);
  for (let index = 0; index < values.length; index += 1) levels[index] = isPresent(values[index]!) ? 1 : 0;
  const writer = new ByteWriter(values.length / 4 + 16);
  writeRleBitPackedHybrid(writer, levels, 1);
  return writer.getBytes();
}

/** A data page whose data is compressed, waiting to be written with its column chunk. */
interface SealedPage {
  count: number;
  /** The page's first row in the row group. */
  firstRow: number;
  nulls: number;
  encoding: string;
  levels: Uint8Array | undefined;
  rawBytes: number;
  compressed: Uint8Array;
}

/** Writes one page (header, levels uncompressed, data compressed); returns its uncompressed size with header. */
function writePage(
  sink: PageSink,
  page: { type: 'DICTIONARY_PAGE'; count: number } | { type: 'DATA_PAGE_V2'; count: number; nulls: number; encoding: string; firstRow: number },
  levels: Uint8Array | undefined,
  data: Uint8Array,
): number {
  const compressed = sink.compress(data);
  if (page.type === 'DATA_PAGE_V2') return writeSealedPage(sink, { ...page, levels, rawBytes: data.length, compressed });
  const headerStart = sink.writer.offset;
  writePageHeader(sink.writer, {
    type: 'DICTIONARY_PAGE',
    uncompressed_page_size: data.length,
    compressed_page_size: compressed.length,
    dictionary_page_header: { num_values: page.count, encoding: 'PLAIN' },
  });
  const header = sink.writer.offset - headerStart;
  sink.writer.appendBytes(compressed);
  return header + data.length;
}

/** Writes a data page (v2: levels uncompressed before the compressed data) and notes where it is; returns its uncompressed size with header. */
function writeSealedPage(sink: PageSink, page: SealedPage): number {
  const levelBytes = page.levels?.length ?? 0;
  const headerStart = sink.writer.offset;
  writePageHeader(sink.writer, {
    type: 'DATA_PAGE_V2',
    uncompressed_page_size: levelBytes + page.rawBytes,
    compressed_page_size: levelBytes + page.compressed.length,
    data_page_header_v2: {
      num_values: page.count,
      num_nulls: page.nulls,
      num_rows: page.count,
      encoding: page.encoding as 'PLAIN',
      definition_levels_byte_length: levelBytes,
      repetition_levels_byte_length: 0,
      is_compressed: true,
    },
  });
  const header = sink.writer.offset - headerStart;
  if (page.levels) sink.writer.appendBytes(page.levels);
  sink.writer.appendBytes(page.compressed);
  sink.pages.push({ offset: BigInt(headerStart), compressed_page_size: sink.writer.offset - headerStart, first_row_index: BigInt(page.firstRow) });
  return header + levelBytes + page.rawBytes;
}

function columnChunk(
  element: SchemaElement,
  chunk: {
    start: number;
    end: number;
    rows: number;
    uncompressed: number;
    dataOffset: number;
    dictionaryOffset?: number;
    encodings: string[];
    encodingStats: { page_type: string; encoding: string; count: number }[];
    statistics: Record<string, unknown>;
  },
): ColumnChunk {
  return {
    file_offset: BigInt(chunk.start),
    meta_data: {
      type: element.type!,
      encodings: chunk.encodings,
      path_in_schema: [element.name],
      codec: 'ZSTD',
      num_values: BigInt(chunk.rows),
      total_uncompressed_size: BigInt(chunk.uncompressed),
      total_compressed_size: BigInt(chunk.end - chunk.start),
      data_page_offset: BigInt(chunk.dataOffset),
      ...(chunk.dictionaryOffset !== undefined ? { dictionary_page_offset: BigInt(chunk.dictionaryOffset) } : {}),
      statistics: chunk.statistics,
      encoding_stats: chunk.encodingStats,
    },
  } as ColumnChunk;
}
