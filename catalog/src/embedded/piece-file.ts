import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { deflateView, inMemoryPiece } from '../gzip-pieces.js';
import type { DeflatedPiece } from '../gzip-pieces.js';

/** Pieces are appended through a buffer this large: one write per megabyte of pieces, not one per piece. */
const pendingBytes = 1 << 20;
/**
 * Bytes read at once from the file when a piece is not in the last read: an
 * event's pieces are made one after another, and events in the order pages
 * list them, so a page's next piece is most often in the same read, and a
 * page costs a few system calls, not one per piece.
 */
const readAheadBytes = 32 * 1024;
/**
 * How much of compaction one turn of the event loop does before requests get
 * their turn again: pieces looked at while finding the live ones (about a
 * millisecond's worth), and bytes copied while moving them. Counted, not
 * timed, so a turn's size does not depend on how busy the machine is.
 */
const walkedPerTurn = 4_096;
const movedBytesPerTurn = 512 * 1024;

let files = 0;

/**
 * One append-only file of gzip pieces, read by position. It is unlinked as
 * soon as it is opened: it lives exactly as long as the process holds it, so
 * a crash or restart leaves none behind, and no piece can outlive the event
 * bytes it was made from (pieces are made again after a start). Its contents
 * sit in the page cache, not in the process's memory.
 */
class PieceSegment {
  private fd: number | undefined;
  private readonly pending = Buffer.allocUnsafeSlow(pendingBytes);
  /** Bytes on disk; those from here to `end` are still in `pending`. */
  private flushed = 0;
  /** The file's bytes from `readStart` to `readEnd`, as last read (the file's bytes never change once written). */
  private readonly readAhead = Buffer.allocUnsafeSlow(readAheadBytes);
  private readStart = 0;
  private readEnd = 0;
  /** Pieces served from the last read: one means its read-ahead was wasted. */
  private servedByRead = 2;
  /** Where the next piece goes. */
  end = 0;

  constructor(dir: string) {
    const path = join(dir, `.predgate-pieces-${process.pid}-${(files += 1)}`);
    this.fd = openSync(path, 'w+');
    unlinkSync(path);
  }

  get open(): boolean {
    return this.fd !== undefined;
  }

  /** Appends `bytes`; answers where they start. */
  append(bytes: Buffer): number {
    const at = this.end;
    if (this.end - this.flushed + bytes.length > pendingBytes) this.flush();
    if (bytes.length > pendingBytes) this.write(bytes, at);
    else bytes.copy(this.pending, this.end - this.flushed);
    this.end += bytes.length;
    if (bytes.length > pendingBytes) this.flushed = this.end;
    return at;
  }

  readInto(at: number, length: number, target: Buffer, to: number): void {
    if (at >= this.flushed) {
      this.pending.copy(target, to, at - this.flushed, at - this.flushed + length);
      return;
    }
    if (length > readAheadBytes) {
      this.read(at, length, target, to);
      return;
    }
    if (at < this.readStart || at + length > this.readEnd) {
      // Read ahead while it pays: the last read served more than one piece, or a read ahead would have held it and this one.
      const inReach = Math.max(at + length, this.readEnd) - Math.min(at, this.readStart) <= readAheadBytes;
      const ahead = this.servedByRead > 1 || inReach;
      // Just before the last read, a page is being read backwards (made in the opposite order): the read ends at the piece.
      const backwards = ahead && at < this.readStart && this.readStart - at <= readAheadBytes;
      const start = backwards ? Math.max(0, at + length - readAheadBytes) : at;
      // Otherwise pieces are asked for out of the order they were made (a page of markets from many events): each is read alone.
      const span = ahead ? Math.min(readAheadBytes, this.flushed - start) : length;
      this.read(start, span, this.readAhead, 0);
      this.readStart = start;
      this.readEnd = start + span;
      this.servedByRead = 0;
    }
    this.servedByRead += 1;
    this.readAhead.copy(target, to, at - this.readStart, at - this.readStart + length);
  }

  private read(at: number, length: number, target: Buffer, to: number): void {
    let done = 0;
    while (done < length) {
      const read = readSync(this.fd!, target, to + done, length - done, at + done);
      if (read === 0) throw new Error(`gzip piece file ends before byte ${at + length}`);
      done += read;
    }
  }

  private flush(): void {
    this.write(this.pending.subarray(0, this.end - this.flushed), this.flushed);
    this.flushed = this.end;
  }

  private write(bytes: Buffer, at: number): void {
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd!, bytes, done, bytes.length - done, at + done);
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

/** A piece kept in a segment: the entry holds only where it is. Compaction moves it, in place. */
class FilePiece implements DeflatedPiece {
  constructor(
    public segment: PieceSegment,
    public at: number,
    readonly deflatedLength: number,
    readonly length: number,
  ) {}

  readDeflatedInto(target: Buffer, at: number): void {
    this.segment.readInto(this.at, this.deflatedLength, target, at);
  }
}

/**
 * Where a store's entries keep their gzip pieces: out of the JavaScript heap
 * and out of the process's resident memory, in one file (see PieceSegment),
 * entries holding only offsets and lengths. Kept in memory, a catalog's
 * hundreds of thousands of small piece buffers, made between zlib's large
 * short-lived allocations, cost several times their size in resident memory.
 * Pieces of events a sweep replaced stay in the file until `compact` copies
 * the live ones into a fresh file, so it stays within a bound of what is
 * served.
 */
export class PieceFile {
  private segment: PieceSegment | undefined;
  private closed = false;
  private compacting: Promise<void> | undefined;
  /** Pieces kept while compaction is finding the live ones: they go to the fresh file with them. */
  private keptWhileWalking: FilePiece[] | undefined;

  /** `dir`: where the file is made (the store's folder, else the system's temporary one); it never has a name for long. */
  constructor(
    private readonly dir = tmpdir(),
    /** Waste (bytes of pieces no longer served) tolerated beyond the live pieces' size before `compact` rewrites the file. */
    private readonly slackBytes = 64 * 2 ** 20,
  ) {}

  /** `view` made into a piece and kept. After `close`, or where the file cannot be written, the piece is kept in memory instead. */
  keep(view: Buffer): DeflatedPiece {
    const deflated = deflateView(view);
    if (!this.closed) {
      try {
        this.segment ??= new PieceSegment(this.dir);
        const piece = new FilePiece(this.segment, this.segment.append(deflated), deflated.length, view.length);
        this.keptWhileWalking?.push(piece);
        return piece;
      } catch {
        // A full or unwritable disk costs memory, not answers.
      }
    }
    return inMemoryPiece(Buffer.from(deflated), view.length);
  }

  /** Whether `piece` can still be read: a piece left in a file compaction retired (its event no longer served then) is made again. */
  readable(piece: DeflatedPiece): boolean {
    return !(piece instanceof FilePiece) || piece.segment.open;
  }

  /** Bytes in the file, served or not. */
  get fileBytes(): number {
    return this.segment?.end ?? 0;
  }

  /**
   * Copies `live` (the pieces of every entry served) into a fresh file where
   * the file holds more than their size plus the slack; then closes the old
   * file. Both the walk over `live` (hundreds of thousands of pieces for a
   * large catalog) and the copy are done a slice per turn of the event loop,
   * so requests are served meanwhile, from either file. Pieces kept meanwhile
   * are counted live. Settles when done, or when it is not worth doing.
   */
  compact(live: Iterable<DeflatedPiece>): Promise<void> {
    this.compacting ??= this.copyLive(live).finally(() => (this.compacting = undefined));
    return this.compacting;
  }

  private async copyLive(live: Iterable<DeflatedPiece>): Promise<void> {
    const old = this.segment;
    if (!old || this.closed) return;
    const keptWhileWalking: FilePiece[] = [];
    this.keptWhileWalking = keptWhileWalking;
    let moving: FilePiece[];
    try {
      moving = await this.piecesIn(old, live);
    } finally {
      this.keptWhileWalking = undefined;
    }
    moving.push(...keptWhileWalking.filter((piece) => piece.segment === old));
    const liveBytes = moving.reduce((sum, piece) => sum + piece.deflatedLength, 0);
    if (this.closed || old.end <= liveBytes + Math.max(liveBytes, this.slackBytes)) return;
    const fresh = new PieceSegment(this.dir);
    this.segment = fresh;
    try {
      await this.move(moving, old, fresh);
    } finally {
      // Pieces not moved (the store closed first) are of entries no longer served, or made again when asked for.
      old.close();
    }
  }

  /** The pieces of `live` kept in `segment`, walked a slice per turn. */
  private async piecesIn(segment: PieceSegment, live: Iterable<DeflatedPiece>): Promise<FilePiece[]> {
    const found: FilePiece[] = [];
    const walking = live[Symbol.iterator]();
    for (;;) {
      await nextTurn();
      if (this.closed) return found;
      for (let walked = 0; walked < walkedPerTurn; walked += 1) {
        const next = walking.next();
        if (next.done) return found;
        if (next.value instanceof FilePiece && next.value.segment === segment) found.push(next.value);
      }
    }
  }

  private async move(moving: readonly FilePiece[], old: PieceSegment, fresh: PieceSegment): Promise<void> {
    let scratch = Buffer.allocUnsafe(64 * 1024);
    let index = 0;
    while (index < moving.length) {
      await nextTurn();
      if (this.closed) return;
      for (let moved = 0; index < moving.length && moved < movedBytesPerTurn; index += 1) {
        const piece = moving[index]!;
        // Moved once, even where two entries share it (an event a sweep left unchanged).
        if (piece.segment !== old) continue;
        if (scratch.length < piece.deflatedLength) scratch = Buffer.allocUnsafe(piece.deflatedLength);
        const bytes = scratch.subarray(0, piece.deflatedLength);
        piece.readDeflatedInto(bytes, 0);
        piece.at = fresh.append(bytes);
        piece.segment = fresh;
        moved += piece.deflatedLength;
      }
    }
  }

  close(): void {
    this.closed = true;
    this.segment?.close();
  }
}
