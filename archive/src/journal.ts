import { closeSync, fdatasyncSync, fsyncSync, ftruncateSync, openSync, statSync, writeSync } from 'node:fs';
import { BookState, readMarketFrame } from '@predgate/adapter-polymarket/streams';
import type { BookSnapshot, MarketRow } from '@predgate/adapter-polymarket/streams';
import { fileEventTypes, fitsMarketColumn } from './hour-file.js';
import { checkpointPast } from './reconstruct.js';
import type { AssetHour, Checkpoint, IndexedRow } from './reconstruct.js';
import { forEachLine, forLinesAt, LineWriter } from './lines.js';
import { stagedLine } from './staged-rows.js';

/** Where a token's book was written into the journal: replay of the open hour may start there. */
interface JournalCheckpoint {
  /** The token's rows of the hour the book reflects. */
  row: number;
  /** Venue time of the book. */
  timestamp: number;
  receivedAt: number;
  /** Byte offset of the checkpoint's line. */
  offset: number;
}

interface TokenIndex {
  rows: number;
  checkpoints: JournalCheckpoint[];
  /**
   * Byte offsets of the journal lines holding its rows, ascending: a read of the open hour reads these lines
   * alone, not every token's lines after its checkpoint (at 25M rows an hour, gigabytes).
   */
  lines: number[];
  /** The token's book (also in the archive's map of books): held here so a row costs one lookup, not three. */
  book: BookState;
  /** The last frame that touched the token (see `frames`). */
  frame: number;
  /** The token id as JSON text, for its checkpoint lines. */
  assetIdJson?: string;
  /**
   * Its latest checkpoint's row (-1 before the first) and receive time, read for every frame that touches the
   * token: held here, beside what the frame already read, rather than only at the end of `checkpoints`.
   */
  lastCheckpointRow: number;
  lastCheckpointAt: number;
}

/** A token's book is written again after this many of its rows, or this long after a change. */
export interface CheckpointPolicy {
  every: number;
  maxAgeMs: number;
}

/** Work done per turn of the event loop while writing the books carried into a new hour. */
const carrySliceMs = 5;

/** The journal's write buffer: lines wait here until it is full or the next flush. */
const bufferBytes = 4 << 20;

/** True for the rows a published file holds (pmxt's four event types, a 66-byte condition id, a token). */
export function isFileRow(row: MarketRow): boolean {
  return (
    row.assetId !== '' &&
    fileEventTypes.has(row.eventType) &&
    fitsMarketColumn(row.market) &&
    isFieldText(row.assetId) &&
    (row.transactionHash === undefined || isFieldText(row.transactionHash))
  );
}

/**
 * Text a staged row can hold as one field: no tab, line break or other control
 * character (the venue's JSON may carry them escaped). One such row would
 * shift every column after it and fail the whole hour's roll, so it is left
 * out here instead.
 */
function isFieldText(text: string): boolean {
  return !controlCharacter.test(text);
}
// eslint-disable-next-line no-control-regex -- control characters are exactly what a staged field cannot hold
const controlCharacter = /[\u0000-\u001f]/;

/**
 * The open hour on disk: an append-only journal of every recorded frame as
 * received (`F<receive ms> <frame>`), rows recorded without a frame
 * (`R<json>`), token books (`C<json>`) and alive marks (`T<ms>`). Memory holds only each token's
 * book and where its checkpoints are in the file, never the hour's rows: a
 * reconstruction in the open hour reads the journal from the token's last
 * checkpoint before the moment asked.
 */
export class HourJournal {
  private fd: number | undefined;
  /**
   * Lines appended and not yet written, already UTF-8 (each line is encoded
   * once, here). A full buffer is written out (not synced) and reused, so a
   * burst between two flushes never copies what it appended into a larger one.
   */
  private buffer = Buffer.allocUnsafe(bufferBytes);
  private pendingBytes = 0;
  /** Bytes in the file: where the buffer's first byte goes. */
  private fileBytes = 0;
  /** Bytes in the file and synced: what counts as recorded, and what reads of the open hour see. */
  private flushedBytes = 0;
  /** Tokens the current frame touched (reused: a frame touches one or two). */
  private readonly touched: TokenIndex[] = [];
  /** Frames indexed so far: a token touched by the current frame is marked with its number. */
  private frames = 0;
  private oldestUnflushed: number | undefined;
  private readonly tokens = new Map<string, TokenIndex>();
  /** The latest receive time of a row held. */
  lastReceivedAt: number | undefined;
  /** The latest moment the recorder is known to have been running (a row, or an alive mark written with a flush). */
  lastSeenAt: number | undefined;
  private lastMark = Number.NEGATIVE_INFINITY;
  /** Tokens whose book carried into the hour is not written yet (see `create`). */
  private readonly carrying = new Set<string>();
  /** Settles once every book carried into the hour is in the journal (appended, not yet synced). */
  carriedIn: Promise<void> = Promise.resolve();

  private constructor(
    readonly start: number,
    readonly path: string,
    private readonly books: Map<string, BookState>,
    private readonly policy: CheckpointPolicy,
    private readonly now: () => number,
  ) {}

  /**
   * A new hour's journal; every known book is carried in at its start. The
   * books are written a slice at a time between turns of the event loop (at
   * tens of thousands of tokens, writing them at once stalled recording for a
   * second); a token that gets a row, or is read, before its turn has its book
   * written first, so its carried book always comes before its rows.
   */
  static create(start: number, path: string, books: Map<string, BookState>, policy: CheckpointPolicy, now: () => number): HourJournal {
    const journal = new HourJournal(start, path, books, policy, now);
    journal.fd = openSync(path, 'a');
    journal.flushedBytes = journal.fileBytes = statSync(path).size;
    for (const book of books.values()) if (book.known) journal.carrying.add(book.assetId);
    journal.carriedIn = journal.writeCarried();
    return journal;
  }

  /** Reopens a journal after a crash: a torn last line is cut off, books and token indexes are rebuilt. */
  static recover(start: number, path: string, books: Map<string, BookState>, policy: CheckpointPolicy, now: () => number): HourJournal {
    const journal = new HourJournal(start, path, books, policy, now);
    const size = statSync(path).size;
    const complete = forEachLine(path, (line, offset) => journal.replayLine(line, offset), { unterminated: 'skip' });
    if (complete < size) {
      const fd = openSync(path, 'r+');
      ftruncateSync(fd, complete);
      fsyncSync(fd);
      closeSync(fd);
    }
    journal.fd = openSync(path, 'a');
    journal.flushedBytes = journal.fileBytes = complete;
    return journal;
  }

  /** Adds rows in receive order; `frame` is their frame's text, journalled instead of the rows. */
  append(rows: MarketRow[], frame?: { text: string; receivedAt: number }): void {
    // A token's carried book goes before its first row of the hour: a read of the open hour starts at the book.
    if (this.carrying.size > 0) for (const row of rows) if (this.carrying.has(row.assetId)) this.carry(row.assetId);
    if (frame) {
      const offset = this.fileBytes + this.pendingBytes;
      // Written in pieces: a frame's text is encoded straight from the socket's string, never copied into a line first;
      // the pieces around it are ASCII, copied a byte a character rather than by a call into the encoder each.
      this.writeAscii(`F${frame.receivedAt} `);
      this.write(frame.text.includes('\n') ? frame.text.replaceAll('\n', ' ') : frame.text);
      this.writeAscii('\n');
      this.index(rows, offset);
      this.checkpointTouched();
      return;
    }
    for (const row of rows) {
      const offset = this.fileBytes + this.pendingBytes;
      this.write(`R${JSON.stringify(row)}\n`);
      this.index([row], offset);
      this.checkpointTouched();
    }
  }

  /**
   * Writes and syncs what was appended, with an alive mark (`T<ms>`, at most
   * every 100 ms): after a crash, the time not recording starts at the last
   * mark, not at the last row (a quiet market is not an outage).
   */
  flush(): void {
    if (this.fd === undefined) return;
    const at = this.now();
    if (at - this.lastMark >= 100) {
      this.lastMark = at;
      this.lastSeenAt = Math.max(this.lastSeenAt ?? at, at);
      this.write(`T${at}\n`);
    }
    this.drain();
    if (this.fileBytes === this.flushedBytes) return;
    fdatasyncSync(this.fd);
    this.flushedBytes = this.fileBytes;
    // A line longer than the buffer grew it; the next ones do not need that.
    if (this.buffer.length > bufferBytes) this.buffer = Buffer.allocUnsafe(bufferBytes);
    this.oldestUnflushed = undefined;
  }

  get oldestUnflushedAt(): number | undefined {
    return this.oldestUnflushed;
  }

  close(): void {
    for (const assetId of this.carrying) this.carry(assetId);
    // A clean stop marks its own moment: the time not recording starts exactly here.
    this.lastMark = Number.NEGATIVE_INFINITY;
    this.flush();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /**
   * One token's part of the hour: its latest checkpoint at or before `since`
   * (the first when none is) and its rows after it, read from the journal's
   * lines that hold them; with `until`, only up to the checkpoint past it
   * (`HourSource`: later rows count after `until`).
   */
  assetHour(assetId: string, since: number, until?: number): AssetHour {
    if (this.carrying.has(assetId)) this.carry(assetId);
    this.flush();
    const token = this.tokens.get(assetId);
    if (!token) return { start: this.start, rows: [], checkpoints: [] };
    let chosen: JournalCheckpoint | undefined;
    for (const checkpoint of token.checkpoints) if (checkpoint.timestamp <= since || !chosen) chosen = checkpoint;
    const checkpoints: Checkpoint[] = [];
    let position = 0;
    if (chosen) {
      let line = '';
      forLinesAt(this.path, [chosen.offset], 0, 1, this.flushedBytes, (text) => (line = text));
      const entry = JSON.parse(line.slice(1)) as { s: BookSnapshot };
      checkpoints.push({ assetId, row: chosen.row, snapshot: entry.s });
      position = chosen.row;
    }
    const past = until === undefined ? undefined : checkpointPast(token.checkpoints, chosen, Math.max(since, until));
    const rows: IndexedRow[] = [];
    // A checkpoint follows its frame's line, so the lines after it hold exactly the rows it does not reflect.
    const first = firstAfter(token.lines, chosen?.offset ?? -1);
    const end = past ? firstAfter(token.lines, past.offset) : token.lines.length;
    forLinesAt(this.path, token.lines, first, end, this.flushedBytes, (line) => {
      for (const row of rowsOfLine(line)) if (row.assetId === assetId && isFileRow(row)) rows.push({ ...row, row: position++ });
    });
    return { start: this.start, rows, checkpoints };
  }

  /** Indexes the rows of the line written at `offset`. */
  private index(rows: MarketRow[], offset: number): void {
    const touched = this.touched;
    touched.length = 0;
    const frame = (this.frames += 1);
    for (const row of rows) {
      if (!isFileRow(row)) continue;
      this.lastReceivedAt = Math.max(this.lastReceivedAt ?? row.receivedAt, row.receivedAt);
      this.lastSeenAt = Math.max(this.lastSeenAt ?? row.receivedAt, row.receivedAt);
      const token = this.token(row.assetId);
      token.book.apply(row);
      token.rows += 1;
      if (token.frame !== frame) {
        token.frame = frame;
        token.lines.push(offset);
        touched.push(token);
      }
    }
  }

  /**
   * Writes the books due of the tokens the last indexed line touched. Checkpoints follow the whole frame, so a
   * journal read from one never misses a row of the frame before it. Not while replaying a journal after a crash:
   * its checkpoint lines are in it already, and books written then would go, out of order, to its end.
   */
  private checkpointTouched(): void {
    for (const token of this.touched) {
      const receivedAt = this.lastReceivedAt!;
      const due =
        token.lastCheckpointRow < 0 || token.rows - token.lastCheckpointRow >= this.policy.every || receivedAt - token.lastCheckpointAt >= this.policy.maxAgeMs;
      if (due && token.book.known) this.checkpoint(token.book.assetId, receivedAt);
    }
  }

  /** Writes the carried books still waiting, about `carrySliceMs` of work at a time, yielding to the event loop between slices. */
  private async writeCarried(): Promise<void> {
    while (this.carrying.size > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      const until = performance.now() + carrySliceMs;
      for (const assetId of this.carrying) {
        this.carry(assetId);
        if (performance.now() >= until) break;
      }
    }
  }

  /** The token's book as it was at the hour's start (row 0), before any row of the hour changes it. */
  private carry(assetId: string): void {
    this.carrying.delete(assetId);
    this.checkpoint(assetId, this.start);
  }

  private checkpoint(assetId: string, receivedAt: number): void {
    const token = this.token(assetId);
    addCheckpoint(token, { row: token.rows, timestamp: token.book.timestamp, receivedAt, offset: this.fileBytes + this.pendingBytes });
    token.assetIdJson ??= JSON.stringify(assetId);
    this.write(`C{"a":${token.assetIdJson},"r":${token.rows},"s":`);
    // The book writes its own JSON into the buffer: a snapshot built and stringified here was an eighth of recording's
    // time, and its text built as a string, then encoded, most of a checkpoint's cost.
    const book = token.book;
    this.writeBytes((target, offset) => book.writeJson(target, offset));
    this.write('}\n');
  }

  private token(assetId: string): TokenIndex {
    let token = this.tokens.get(assetId);
    if (!token) {
      let book = this.books.get(assetId);
      if (!book) this.books.set(assetId, (book = new BookState(assetId)));
      this.tokens.set(assetId, (token = { rows: 0, checkpoints: [], lines: [], book, frame: 0, lastCheckpointRow: -1, lastCheckpointAt: 0 }));
    }
    return token;
  }

  private write(line: string): void {
    // A UTF-8 character takes at most three bytes per UTF-16 unit.
    this.reserve(line.length * 3);
    this.pendingBytes += this.buffer.write(line, this.pendingBytes, 'utf8');
    this.oldestUnflushed ??= Date.now();
  }

  /** `write` for text known to be ASCII. */
  private writeAscii(text: string): void {
    this.reserve(text.length);
    const buffer = this.buffer;
    for (let index = 0; index < text.length; index += 1) buffer[this.pendingBytes + index] = text.charCodeAt(index);
    this.pendingBytes += text.length;
    this.oldestUnflushed ??= Date.now();
  }

  /** Room for `bytes` more in the buffer: what is pending is written out first, and the buffer grows only when that is not enough. */
  private reserve(bytes: number): void {
    if (this.pendingBytes + bytes <= this.buffer.length) return;
    this.drain();
    // Still too long (one line longer than the buffer, or no file open yet): a larger buffer.
    if (this.pendingBytes + bytes > this.buffer.length) this.grow(this.pendingBytes + bytes);
  }

  /** Appends what `writer` writes into the buffer at an offset (returning the offset after it, or -1 when it did not fit). */
  private writeBytes(writer: (target: Buffer, offset: number) => number): void {
    let end = writer(this.buffer, this.pendingBytes);
    if (end < 0) {
      this.drain();
      end = writer(this.buffer, this.pendingBytes);
    }
    // Still too long (longer than the buffer, or no file open yet): a larger buffer.
    while (end < 0) {
      this.grow(this.buffer.length * 2);
      end = writer(this.buffer, this.pendingBytes);
    }
    this.pendingBytes = end;
    this.oldestUnflushed ??= Date.now();
  }

  /** A buffer of at least `bytes` (and twice the current one), holding what is pending. */
  private grow(bytes: number): void {
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, bytes));
    this.buffer.copy(grown, 0, 0, this.pendingBytes);
    this.buffer = grown;
  }

  /** Writes the buffer to the file (the next flush syncs it). */
  private drain(): void {
    if (this.fd === undefined || this.pendingBytes === 0) return;
    for (let written = 0; written < this.pendingBytes;) written += writeSync(this.fd, this.buffer, written, this.pendingBytes - written);
    this.fileBytes += this.pendingBytes;
    this.pendingBytes = 0;
  }

  private replayLine(line: string, offset: number): void {
    if (line.startsWith('T')) {
      this.lastSeenAt = Math.max(this.lastSeenAt ?? 0, Number(line.slice(1)));
      return;
    }
    if (line.startsWith('C')) {
      const entry = JSON.parse(line.slice(1)) as { a: string; r: number; s: BookSnapshot };
      const token = this.token(entry.a);
      addCheckpoint(token, { row: entry.r, timestamp: entry.s.timestamp, receivedAt: entry.s.syncedAt ?? this.start, offset });
      if (!token.book.known) this.books.set(entry.a, (token.book = BookState.from(entry.s)));
      return;
    }
    this.index(rowsOfLine(line), offset);
  }
}

function addCheckpoint(token: TokenIndex, checkpoint: JournalCheckpoint): void {
  token.checkpoints.push(checkpoint);
  token.lastCheckpointRow = checkpoint.row;
  token.lastCheckpointAt = checkpoint.receivedAt;
}

/** Index in `offsets` (ascending) of the first one past `offset`. */
function firstAfter(offsets: number[], offset: number): number {
  let low = 0;
  let high = offsets.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (offsets[middle]! <= offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The rows a journal line holds. */
function rowsOfLine(line: string): MarketRow[] {
  if (line.startsWith('F')) {
    const space = line.indexOf(' ');
    return readMarketFrame(line.slice(space + 1), Number(line.slice(1, space))).rows;
  }
  if (line.startsWith('R')) return [JSON.parse(line.slice(1)) as MarketRow];
  return [];
}

/**
 * Stages a closed hour's journal for its roll: every file row as a staged
 * line (in journal order), and the books carried into the hour (JSON text).
 */
export function stageJournal(journalPath: string, stagedPath: string): Map<string, string> {
  const startBooks = new Map<string, string>();
  const out = new LineWriter(stagedPath);
  let seq = 0;
  forEachLine(journalPath, (line) => {
    if (line.startsWith('C')) {
      // Only the books written at the hour's start (row 0) are read; later checkpoints are most of the journal's text.
      if (carriedIn.test(line)) {
        const entry = JSON.parse(line.slice(1)) as { a: string; s: BookSnapshot };
        startBooks.set(entry.a, JSON.stringify(entry.s));
      }
      return;
    }
    for (const row of rowsOfLine(line)) if (isFileRow(row)) out.write(stagedLine(row, seq++));
  });
  out.close();
  return startBooks;
}

/** A checkpoint line written at the hour's start: `C{"a":"<token>","r":0,...`. */
const carriedIn = /^C\{"a":"(?:[^"\\]|\\.)*","r":0,/;
