import { closeSync, openSync, readSync, fstatSync, writeSync } from 'node:fs';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { BookSnapshot } from '@predgate/adapter-polymarket/streams';

/** One checkpoint of a token: how many of its rows of the hour the book reflects, the book's time, where its snapshot is. */
export interface IndexedCheckpoint {
  row: number;
  timestamp: number;
  offset: number;
  length: number;
}

/** One token's part of an hour file: its market, its first row in the file, its row count, its checkpoints in row order. */
export interface TokenEntry {
  market: string;
  firstRow: number;
  rows: number;
  checkpoints: IndexedCheckpoint[];
}

/** The directory as stored: `[market, firstRow, rows, [[row, timestamp, offset, length], ...]]` by token. */
type StoredEntry = [string, number, number, [number, number, number, number][]];

/** Bytes of the trailer: the directory's offset, a 64-bit little-endian integer. */
const trailerBytes = 8;

/**
 * Writes an hour's index beside its data file: every token's checkpoints (full
 * books, each compressed on its own so one can be read alone) and, per token,
 * where its rows are in the data file (the file is sorted by token, so they are
 * one run). The directory follows the snapshots, then its offset.
 */
export class HourIndexWriter {
  private readonly fd: number;
  private offset = 0;
  private readonly tokens = new Map<string, StoredEntry>();

  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }

  /** A token's run of rows in the data file; a token with no rows this hour (only a carried book) has none. */
  rowsOf(assetId: string, market: string, firstRow: number, rows: number): void {
    const entry = this.entry(assetId, market);
    entry[1] = firstRow;
    entry[2] = rows;
  }

  /** A checkpoint: the book after the token's first `row` rows of the hour. Checkpoints of a token come in row order. */
  checkpoint(assetId: string, row: number, snapshot: BookSnapshot): void {
    const bytes = deflateRawSync(JSON.stringify(snapshot));
    this.write(bytes);
    this.entry(assetId, snapshot.market)[3].push([row, snapshot.timestamp, this.offset - bytes.length, bytes.length]);
  }

  close(): void {
    const directory = this.offset;
    this.write(deflateRawSync(JSON.stringify(Object.fromEntries(this.tokens))));
    const trailer = Buffer.alloc(trailerBytes);
    trailer.writeBigUInt64LE(BigInt(directory));
    this.write(trailer);
    closeSync(this.fd);
  }

  private entry(assetId: string, market: string): StoredEntry {
    let entry = this.tokens.get(assetId);
    if (!entry) this.tokens.set(assetId, (entry = [market, 0, 0, []]));
    return entry;
  }

  private write(bytes: Uint8Array): void {
    let written = 0;
    while (written < bytes.length) written += writeSync(this.fd, bytes, written, bytes.length - written);
    this.offset += bytes.length;
  }
}

/**
 * An hour's index, read: the directory once (a few bytes per token), then a
 * snapshot at a time by its offset.
 */
export class HourIndex {
  private constructor(
    private readonly fd: number,
    private readonly tokens: Record<string, StoredEntry>,
  ) {}

  static open(path: string): HourIndex {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      const directory = Number(readAt(fd, size - trailerBytes, trailerBytes).readBigUInt64LE());
      const text = inflateRawSync(readAt(fd, directory, size - trailerBytes - directory)).toString('utf8');
      return new HourIndex(fd, JSON.parse(text) as Record<string, StoredEntry>);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  token(assetId: string): TokenEntry | undefined {
    const entry = Object.hasOwn(this.tokens, assetId) ? this.tokens[assetId] : undefined;
    if (!entry) return undefined;
    const [market, firstRow, rows, checkpoints] = entry;
    return { market, firstRow, rows, checkpoints: checkpoints.map(([row, timestamp, offset, length]) => ({ row, timestamp, offset, length })) };
  }

  /** Each token's last book of the hour (what the next hour carries in), as JSON text. */
  *lastBooks(): Generator<[assetId: string, snapshot: string]> {
    for (const [assetId, [, , , checkpoints]] of Object.entries(this.tokens)) {
      const last = checkpoints.at(-1);
      if (last) yield [assetId, inflateRawSync(readAt(this.fd, last[2], last[3])).toString('utf8')];
    }
  }

  snapshot(checkpoint: IndexedCheckpoint): BookSnapshot {
    return JSON.parse(inflateRawSync(readAt(this.fd, checkpoint.offset, checkpoint.length)).toString('utf8')) as BookSnapshot;
  }

  close(): void {
    closeSync(this.fd);
  }
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const bytes = readSync(fd, buffer, read, length - read, position + read);
    if (bytes === 0) throw new Error(`the hour index ends at ${position + read}, before ${position + length}`);
    read += bytes;
  }
  return buffer;
}
