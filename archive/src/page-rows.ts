import type { ColumnMetaData, PageHeader, SchemaElement } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';

/** A value as a book's replay reads it: INT64 and INT32 as numbers, text as strings, fixed bytes (decimals) as they are stored; null when absent. */
export type ColumnValue = number | string | Uint8Array | null;

/** One entry of a column chunk's offset index. */
export interface PageLocation {
  offset: bigint;
  compressed_page_size: number;
  first_row_index: bigint;
}

/** A column chunk as this reader decodes it: where its pages are, its dictionary once read, and how its values are typed. */
export interface ChunkPages {
  meta: ColumnMetaData;
  element: SchemaElement;
  pages: PageLocation[];
  /** The dictionary page's values, decompressed, and where each value starts (read on first use, then kept with the page locations). */
  dictionary?: { bytes: Uint8Array; starts: Int32Array };
}

/** Reads `length` bytes at `position` of the file. */
export type ReadBytes = (position: number, length: number) => Uint8Array;

/**
 * True when every page of the chunk is one this module decodes: data pages
 * v2 (levels apart from the values) in PLAIN or RLE_DICTIONARY, a PLAIN
 * dictionary, ZSTD or no compression, no nesting. This archive's writer
 * writes only such chunks; `encoding_stats` says what a chunk holds.
 */
export function decodesChunk(chunk: ChunkPages): boolean {
  const { meta, element } = chunk;
  return (
    (meta.codec === 'ZSTD' || meta.codec === 'UNCOMPRESSED') &&
    meta.path_in_schema.length === 1 &&
    element.repetition_type !== 'REPEATED' &&
    (meta.encoding_stats?.length ?? 0) > 0 &&
    meta.encoding_stats!.every(
      (stats) =>
        (stats.page_type === 'DATA_PAGE_V2' && (stats.encoding === 'PLAIN' || stats.encoding === 'RLE_DICTIONARY')) ||
        (stats.page_type === 'DICTIONARY_PAGE' && stats.encoding === 'PLAIN'),
    )
  );
}

/**
 * The values of rows `from` to `to` (exclusive, counted in the row group) of
 * one column chunk, written to `out` from `at`. Only the pages holding those
 * rows are read; each is decompressed whole (ZSTD has no smaller unit), but
 * only the rows asked for are decoded: a `since` replays tens of a page's
 * thousands of rows, and decoding every row made most of its garbage.
 */
export function readChunkRows(
  chunk: ChunkPages,
  read: ReadBytes,
  range: { from: number; to: number; groupRows: number },
  decompress: (bytes: Uint8Array, size: number) => Uint8Array,
  out: ColumnValue[],
  at: number,
): void {
  const { pages } = chunk;
  for (let index = pageHolding(pages, range.from); index < pages.length; index += 1) {
    const first = Number(pages[index]!.first_row_index);
    if (first >= range.to) break;
    const end = index + 1 < pages.length ? Number(pages[index + 1]!.first_row_index) : range.groupRows;
    const location = pages[index]!;
    const bytes = read(Number(location.offset), location.compressed_page_size);
    const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
    const header = parquetHeader(reader);
    const skip = Math.max(0, range.from - first);
    const take = Math.min(end, range.to) - first - skip;
    decodePage(chunk, header, bytes.subarray(reader.offset), { skip, take }, read, decompress, out, at + first + skip - range.from);
  }
}

/** The index of the page holding `row` (pages are in row order). */
function pageHolding(pages: PageLocation[], row: number): number {
  let low = 0;
  let high = pages.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (Number(pages[middle]!.first_row_index) <= row) low = middle;
    else high = middle - 1;
  }
  return low;
}

function decodePage(
  chunk: ChunkPages,
  header: PageHeader,
  body: Uint8Array,
  rows: { skip: number; take: number },
  read: ReadBytes,
  decompress: (bytes: Uint8Array, size: number) => Uint8Array,
  out: ColumnValue[],
  at: number,
): void {
  const v2 = header.data_page_header_v2;
  if (header.type !== 'DATA_PAGE_V2' || !v2) throw new Error(`${chunk.meta.path_in_schema.join('.')}: a ${header.type} page where data page v2 was declared`);
  const wanted = rows.skip + rows.take;
  // Definition levels (0 null, 1 present) of the rows up to the last wanted; a required column has none.
  const optional = chunk.element.repetition_type === 'OPTIONAL';
  const levels = new Uint8Array(optional ? wanted : 0);
  if (optional) {
    readHybrid(body.subarray(0, v2.definition_levels_byte_length), 1, levels);
  }
  const levelBytes = v2.definition_levels_byte_length + v2.repetition_levels_byte_length;
  const stored = body.subarray(levelBytes, header.compressed_page_size);
  const valuesSize = header.uncompressed_page_size - levelBytes;
  const values = v2.is_compressed === false || chunk.meta.codec === 'UNCOMPRESSED' ? stored : decompress(stored, valuesSize);
  // Present values before the first wanted row are skipped, not decoded.
  let skipped = 0;
  for (let row = 0; row < rows.skip; row += 1) if (!optional || levels[row] === 1) skipped += 1;
  let present = 0;
  for (let row = rows.skip; row < wanted; row += 1) if (!optional || levels[row] === 1) present += 1;
  const decoded =
    v2.encoding === 'RLE_DICTIONARY' ? dictionaryValues(chunk, values, skipped, present, read, decompress) : plainValues(chunk, values, skipped, present);
  let next = 0;
  for (let row = rows.skip; row < wanted; row += 1) out[at + row - rows.skip] = !optional || levels[row] === 1 ? decoded[next++]! : null;
}

/** `count` PLAIN values after the first `skip`. */
function plainValues(chunk: ChunkPages, bytes: Uint8Array, skip: number, count: number): ColumnValue[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { type } = chunk.meta;
  const values: ColumnValue[] = [];
  if (type === 'BYTE_ARRAY') {
    let offset = 0;
    for (let index = 0; index < skip; index += 1) offset += 4 + view.getUint32(offset, true);
    for (let index = 0; index < count; index += 1) {
      const length = view.getUint32(offset, true);
      values.push(textOf(bytes, offset + 4, length));
      offset += 4 + length;
    }
    return values;
  }
  const width = fixedWidth(chunk);
  for (let index = skip; index < skip + count; index += 1) values.push(fixedValue(type, bytes, view, index * width, width));
  return values;
}

/** `count` dictionary-coded values after the first `skip`: their indexes decoded, then looked up in the chunk's dictionary. */
function dictionaryValues(
  chunk: ChunkPages,
  bytes: Uint8Array,
  skip: number,
  count: number,
  read: ReadBytes,
  decompress: (bytes: Uint8Array, size: number) => Uint8Array,
): ColumnValue[] {
  const dictionary = (chunk.dictionary ??= readDictionary(chunk, read, decompress));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const indexes = new Int32Array(skip + count);
  if (indexes.length > 0) readHybrid(bytes.subarray(1), view.getUint8(0), indexes);
  const values: ColumnValue[] = [];
  const dictionaryView = new DataView(dictionary.bytes.buffer, dictionary.bytes.byteOffset, dictionary.bytes.byteLength);
  for (let index = skip; index < indexes.length; index += 1) {
    const entry = indexes[index]!;
    if (entry >= dictionary.starts.length - 1)
      throw new Error(`${chunk.meta.path_in_schema.join('.')}: dictionary index ${entry} past its ${dictionary.starts.length - 1} values`);
    const start = dictionary.starts[entry]!;
    const end = dictionary.starts[entry + 1]!;
    values.push(
      chunk.meta.type === 'BYTE_ARRAY'
        ? textOf(dictionary.bytes, start + 4, end - start - 4)
        : fixedValue(chunk.meta.type, dictionary.bytes, dictionaryView, start, end - start),
    );
  }
  return values;
}

/**
 * The first `output.length` values of a run-length / bit-packed hybrid
 * (Parquet's levels and dictionary indexes), `width` bits each. It stops
 * there: a page's later runs are never walked.
 */
export function readHybrid(bytes: Uint8Array, width: number, output: Uint8Array | Int32Array): void {
  let offset = 0;
  let seen = 0;
  const byteWidth = (width + 7) >> 3;
  const mask = width === 32 ? -1 : (1 << width) - 1;
  while (seen < output.length) {
    if (offset >= bytes.length) throw new Error(`run-length data ends after ${seen} of ${output.length} values`);
    let header = 0;
    for (let shift = 0; ; shift += 7) {
      // A damaged page must fail here, not spin: past the end every byte would read as a continuation.
      if (offset >= bytes.length) throw new Error(`run-length data ends inside a run header after ${seen} of ${output.length} values`);
      const byte = bytes[offset++]!;
      header |= (byte & 0x7f) << shift;
      if (byte < 0x80) break;
    }
    if (header & 1) {
      // Bit-packed: groups of 8 values, least significant bits first.
      const count = (header >>> 1) * 8;
      const start = offset;
      for (let index = 0; index < count && seen < output.length; index += 1) {
        const bit = index * width;
        let value = 0;
        for (let taken = 0; taken < width;) {
          const at = bit + taken;
          const byte = bytes[start + (at >> 3)] ?? 0;
          const available = Math.min(8 - (at & 7), width - taken);
          value |= ((byte >> (at & 7)) & ((1 << available) - 1)) << taken;
          taken += available;
        }
        output[seen++] = value & mask;
      }
      offset = start + (header >>> 1) * width;
    } else {
      let value = 0;
      for (let index = 0; index < byteWidth; index += 1) value |= bytes[offset++]! << (index * 8);
      const end = Math.min(output.length, seen + (header >>> 1));
      output.fill(value, seen, end);
      seen = end;
    }
  }
}

/** The chunk's dictionary page, decompressed, with where each of its values starts (and one past the last). */
function readDictionary(
  chunk: ChunkPages,
  read: ReadBytes,
  decompress: (bytes: Uint8Array, size: number) => Uint8Array,
): { bytes: Uint8Array; starts: Int32Array } {
  const { meta } = chunk;
  if (meta.dictionary_page_offset === undefined) throw new Error(`${meta.path_in_schema.join('.')}: dictionary-coded pages without a dictionary page`);
  const offset = Number(meta.dictionary_page_offset);
  const bytes = read(offset, Number(chunk.pages[0]!.offset) - offset);
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
  const header = parquetHeader(reader);
  const count = header.dictionary_page_header?.num_values;
  if (header.type !== 'DICTIONARY_PAGE' || count === undefined) throw new Error(`${meta.path_in_schema.join('.')}: no dictionary page at ${offset}`);
  const stored = bytes.subarray(reader.offset, reader.offset + header.compressed_page_size);
  const values = meta.codec === 'UNCOMPRESSED' ? stored : decompress(stored, header.uncompressed_page_size);
  const starts = new Int32Array(count + 1);
  const view = new DataView(values.buffer, values.byteOffset, values.byteLength);
  const width = meta.type === 'BYTE_ARRAY' ? 0 : fixedWidth(chunk);
  for (let index = 0, at = 0; index <= count; index += 1) {
    starts[index] = at;
    if (index < count) at += width || 4 + view.getUint32(at, true);
  }
  return { bytes: values, starts };
}

function fixedWidth(chunk: ChunkPages): number {
  const { type } = chunk.meta;
  if (type === 'INT64') return 8;
  if (type === 'INT32') return 4;
  if (type === 'FIXED_LEN_BYTE_ARRAY' && chunk.element.type_length) return chunk.element.type_length;
  throw new Error(`${chunk.meta.path_in_schema.join('.')}: values of type ${type} are not read`);
}

function fixedValue(type: string, bytes: Uint8Array, view: DataView, offset: number, width: number): ColumnValue {
  if (type === 'INT64') return Number(view.getBigInt64(offset, true));
  if (type === 'INT32') return view.getInt32(offset, true);
  return bytes.subarray(offset, offset + width);
}

const utf8 = new TextDecoder();

function textOf(bytes: Uint8Array, offset: number, length: number): string {
  return utf8.decode(bytes.subarray(offset, offset + length));
}
