import { closeSync, openSync, readSync } from 'node:fs';

/**
 * One of the store's files, read by range. A catalog kept on disk serves its
 * events' bytes from the files it already wrote, through the operating
 * system's page cache, instead of holding a second copy in the process: the
 * process keeps only the index, and a restart reads only the keys. Reads are
 * synchronous because they are page-cache copies of a few kilobytes, shorter
 * than a trip through the thread pool.
 */
export class FileBytes {
  private fd: number | undefined;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'r');
  }

  range(offset: number, length: number): FileRange {
    return new FileRange(this, offset, length);
  }

  read(offset: number, length: number): Buffer {
    const bytes = Buffer.allocUnsafe(length);
    this.readInto(offset, length, bytes, 0);
    return bytes;
  }

  /** Fills `target` from `offset` on, or as much of it as the file holds; answers how much that was. */
  readUpTo(offset: number, target: Buffer): number {
    return this.readAt(offset, target.length, target, 0);
  }

  /** Reads `length` bytes from `offset` into `target` at `at`. */
  readInto(offset: number, length: number, target: Buffer, at: number): void {
    if (this.readAt(offset, length, target, at) < length) throw new Error(`catalog file ${this.path} ends before byte ${offset + length}`);
  }

  /** Reads up to `length` bytes from `offset` into `target` at `at`, stopping at the end of the file; answers how many. */
  private readAt(offset: number, length: number, target: Buffer, at: number): number {
    if (this.fd === undefined) throw new Error(`catalog file ${this.path} was replaced and closed before this read`);
    if (pageRead.file === this && offset >= pageRead.start && offset + length <= pageRead.end) {
      return pageRead.bytes.copy(target, at, offset - pageRead.start, offset - pageRead.start + length);
    }
    let done = 0;
    while (done < length) {
      const read = readSync(this.fd, target, at + done, length - done, offset + done);
      if (read === 0) break;
      done += read;
    }
    return done;
  }

  /**
   * Closes the file once `afterMs` have passed: a replaced file stays
   * readable (its name is gone, not its contents) while requests already
   * holding entries of the sweep before finish with it.
   */
  retire(afterMs: number): void {
    setTimeout(() => this.close(), afterMs).unref();
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

/** The most bytes `readPage` reads at once: a page of fifty large events, and the closed ones between them. */
const pageReadBytes = 1 << 20;
/**
 * The ranges `readPage` must fill of what it reads for reading at once to
 * pay: a copy of a byte out of the page cache costs far less than a system
 * call, but bytes of events the page skips are copied for nothing.
 */
const pageReadDensity = 0.25;

/** The bytes `readPage` last read, and where they are from: the files' bytes never change once written. */
const pageRead: { file: FileBytes | undefined; start: number; end: number; bytes: Buffer } = {
  file: undefined,
  start: 0,
  end: 0,
  bytes: Buffer.alloc(0),
};

/**
 * Reads the span of one file that holds `ranges` (the stored bytes of a page's
 * events, about to be written into an answer) with one system call, where
 * they lie close together: later reads of any of them, until the next
 * `readPage`, are copies from it. Events are written to the files in the
 * order a venue's pages list them, so a page's events are neighbours there,
 * and a page costs one read instead of one per event. Ranges in another file,
 * or in memory, are read as before.
 */
export function readPage(ranges: Iterable<EventBytes | undefined>): void {
  let file: FileBytes | undefined;
  let start = Infinity;
  let end = 0;
  let wanted = 0;
  let count = 0;
  for (const range of ranges) {
    if (!(range instanceof FileRange)) continue;
    // The page's first file only: a page across two files (a journal after a snapshot) reads the rest alone.
    file ??= range.file;
    if (range.file !== file) continue;
    start = Math.min(start, range.offset);
    end = Math.max(end, range.offset + range.length);
    wanted += range.length;
    count += 1;
  }
  // One event's bytes and Router shell are read together anyway (see `borrowAdjacentBytes`): a window would be a second copy.
  if (!file || count < 3 || end - start > pageReadBytes || wanted < (end - start) * pageReadDensity) return;
  if (pageRead.bytes.length < end - start) pageRead.bytes = Buffer.allocUnsafeSlow(Math.max(64 * 1024, end - start));
  pageRead.file = undefined;
  file.readInto(start, end - start, pageRead.bytes, 0);
  Object.assign(pageRead, { file, start, end });
}

/** Where an event's stored bytes are in one of the store's files. */
export class FileRange {
  constructor(
    readonly file: FileBytes,
    readonly offset: number,
    readonly length: number,
  ) {}

  read(): Buffer {
    return this.file.read(this.offset, this.length);
  }

  readInto(target: Buffer, at: number): void {
    this.file.readInto(this.offset, this.length, target, at);
  }
}

/** An event's stored bytes: in memory (a catalog without a folder, or a sweep not yet written), or on disk. */
export type EventBytes = Buffer | FileRange;

export function readEventBytes(bytes: EventBytes): Buffer {
  return bytes instanceof FileRange ? bytes.read() : bytes;
}

/** The buffer `borrowEventBytes` reads into, grown as needed: one per process, as the reads are synchronous. */
let scratch = Buffer.allocUnsafeSlow(64 * 1024);

/**
 * An event's stored bytes to be read at once and not kept: bytes on disk land
 * in one reused buffer (valid until the next call), not a new one per read.
 */
export function borrowEventBytes(bytes: EventBytes): Buffer {
  if (!(bytes instanceof FileRange)) return bytes;
  if (scratch.length < bytes.length) scratch = Buffer.allocUnsafeSlow(Math.max(bytes.length, scratch.length * 2));
  bytes.readInto(scratch, 0);
  return scratch.subarray(0, bytes.length);
}

/** Bytes `start` to `end` of an event's stored bytes, read alone and not kept, like `borrowEventBytes`. */
export function borrowEventSlice(bytes: EventBytes, start: number, end: number): Buffer {
  if (!(bytes instanceof FileRange)) return bytes.subarray(start, end);
  if (end > bytes.length) throw new Error(`bytes ${start}-${end} asked of a stored event of ${bytes.length}`);
  return borrowEventBytes(new FileRange(bytes.file, bytes.offset + start, end - start));
}

/** The most bytes between two ranges that `borrowAdjacentBytes` reads through rather than reading each range alone. */
const adjacentGapBytes = 64;

/**
 * Two ranges read at once and not kept, like `borrowEventBytes`: an event's
 * bytes and its Router shell sit one after the other in the line that holds
 * them, so one read brings both in, where two would cost a second system
 * call per event of a page. Ranges apart (or in memory) are read each alone.
 */
export function borrowAdjacentBytes(first: EventBytes, second: EventBytes): [Buffer, Buffer] {
  if (first instanceof FileRange && second instanceof FileRange && first.file === second.file) {
    const gap = second.offset - (first.offset + first.length);
    if (gap >= 0 && gap <= adjacentGapBytes) {
      const span = second.offset + second.length - first.offset;
      if (scratch.length < span) scratch = Buffer.allocUnsafeSlow(Math.max(span, scratch.length * 2));
      first.file.readInto(first.offset, span, scratch, 0);
      return [scratch.subarray(0, first.length), scratch.subarray(span - second.length, span)];
    }
  }
  return [borrowEventBytes(first), readEventBytes(second)];
}

/** Copies an event's bytes into `target` at `at`, without a buffer of their own on the way. */
function copyEventBytes(bytes: EventBytes, target: Buffer, at: number): void {
  if (bytes instanceof FileRange) bytes.readInto(target, at);
  else bytes.copy(target, at);
}

/**
 * Copies events' bytes read in the order they sit in their files through
 * one block read ahead: a read per megabyte rather than per event, which for
 * a snapshot of a few hundred thousand events is most of what writing it
 * costs. Bytes in memory, or out of order, are copied as they are.
 */
export class SequentialCopier {
  private readonly block: Buffer;
  private file: FileBytes | undefined;
  private start = 0;
  private end = 0;

  constructor(blockBytes = 1 << 20) {
    this.block = Buffer.allocUnsafeSlow(blockBytes);
  }

  copy(bytes: EventBytes, target: Buffer, at: number): void {
    if (!(bytes instanceof FileRange) || bytes.length > this.block.length) return copyEventBytes(bytes, target, at);
    if (bytes.file !== this.file || bytes.offset < this.start || bytes.offset + bytes.length > this.end) {
      this.file = bytes.file;
      this.start = bytes.offset;
      this.end = this.start + bytes.file.readUpTo(this.start, this.block);
      if (bytes.offset + bytes.length > this.end) throw new Error(`catalog file ${bytes.file.path} ends before byte ${bytes.offset + bytes.length}`);
    }
    this.block.copy(target, at, bytes.offset - this.start, bytes.offset - this.start + bytes.length);
  }
}

/** The events in the order their bytes sit in the store's files (those in memory first): what `SequentialCopier` reads fastest. */
export function inFileOrder<T extends { bytes: EventBytes }>(events: readonly T[]): T[] {
  const inMemory: T[] = [];
  const byFile = new Map<FileBytes, T[]>();
  for (const event of events) {
    if (!(event.bytes instanceof FileRange)) inMemory.push(event);
    else {
      const list = byFile.get(event.bytes.file);
      if (list) list.push(event);
      else byFile.set(event.bytes.file, [event]);
    }
  }
  const offset = (event: T) => (event.bytes as FileRange).offset;
  return [...inMemory, ...[...byFile.values()].flatMap((list) => list.sort((a, b) => offset(a) - offset(b)))];
}
