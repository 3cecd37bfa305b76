import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';

/**
 * Visits each non-empty line of a file (without its newline) between byte
 * offsets `from` and `to`, with the byte offset it starts at, read
 * synchronously in 1 MiB chunks. A last line without a newline is visited too,
 * unless `unterminated` is `'skip'` (a torn write a journal cuts off).
 * Returns the offset just past the last newline read. Each line is a string of
 * its own, decoded from the bytes: a line kept does not keep the chunk it was
 * read with. Synchronous, for the archive's own processes and reads of the
 * open journal.
 */
export function forEachLine(
  path: string,
  visit: (line: string, offset: number) => void,
  range: { from?: number; to?: number; unterminated?: 'visit' | 'skip' } = {},
): number {
  const fd = openSync(path, 'r');
  try {
    let buffer = Buffer.allocUnsafe(1 << 20);
    // Bytes at the buffer's start that begin a line not yet visited, and the file offset of the first of them.
    let held = 0;
    let heldAt = range.from ?? 0;
    let at = heldAt;
    const end = range.to ?? fstatSync(fd).size;
    while (at < end) {
      if (held === buffer.length) {
        const larger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(larger, 0, 0, held);
        buffer = larger;
      }
      const read = readSync(fd, buffer, held, Math.min(buffer.length - held, end - at), at);
      if (read === 0) break;
      at += read;
      const filled = held + read;
      let start = 0;
      for (let newline = buffer.indexOf(10, held); newline !== -1 && newline < filled; newline = buffer.indexOf(10, newline + 1)) {
        if (newline > start) visit(buffer.toString('utf8', start, newline), heldAt + start);
        start = newline + 1;
      }
      buffer.copy(buffer, 0, start, filled);
      held = filled - start;
      heldAt += start;
    }
    if (held > 0 && range.unterminated !== 'skip') visit(buffer.toString('utf8', 0, held), heldAt);
    return heldAt;
  } finally {
    closeSync(fd);
  }
}

/**
 * Visits the lines that start at `offsets[first]` .. `offsets[end - 1]` (ascending byte offsets), reading no
 * byte at or past `to`. Each read reaches the next line wanted when it is near, so neighbours come from one
 * read, and is small when it is not: a token's lines of an hour, spread over gigabytes, cost reads of about
 * their own bytes, not of 64 KiB around each.
 */
export function forLinesAt(path: string, offsets: ArrayLike<number>, first: number, end: number, to: number, visit: (line: string) => void): void {
  if (first >= end) return;
  const fd = openSync(path, 'r');
  try {
    let buffer = Buffer.allocUnsafe(64 << 10);
    // The file bytes the buffer holds: [held, held + filled).
    let held = 0;
    let filled = 0;
    // `to`, or where the file turned out to end.
    let limit = to;
    for (let index = first; index < end; index += 1) {
      const offset = offsets[index]!;
      for (;;) {
        const start = offset - held;
        let wanted: number;
        if (start >= 0 && start < filled) {
          const newline = buffer.indexOf(10, start);
          if (newline !== -1 && newline < filled) {
            visit(buffer.toString('utf8', start, newline));
            break;
          }
          // The line runs to `to` (a last line without its newline).
          if (held + filled >= limit) {
            visit(buffer.toString('utf8', start, filled));
            break;
          }
          // Cut off: read it again from its start, as much as the buffer holds (more when it filled the buffer).
          if (start === 0 && filled === buffer.length) buffer = Buffer.allocUnsafe(buffer.length * 2);
          wanted = buffer.length;
        } else {
          const span = index + 1 < end ? offsets[index + 1]! - offset : 0;
          wanted = span > 0 && span < buffer.length ? span + smallReadBytes : smallReadBytes;
        }
        held = offset;
        wanted = Math.max(0, Math.min(wanted, buffer.length, limit - offset));
        filled = wanted > 0 ? readSync(fd, buffer, 0, wanted, offset) : 0;
        if (filled < wanted) limit = held + filled;
        if (filled === 0) break;
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** A read for one line: most journal lines (a frame of a few changes) fit. */
const smallReadBytes = 4 << 10;

/** Appends text to a file synchronously, a megabyte at a time. */
export class LineWriter {
  private readonly fd: number;
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }

  write(text: string): void {
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength >= 1 << 20) this.flush();
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private flush(): void {
    if (this.pendingLength === 0) return;
    const bytes = Buffer.from(this.pending.join(''), 'utf8');
    for (let written = 0; written < bytes.length;) written += writeSync(this.fd, bytes, written, bytes.length - written);
    this.pending = [];
    this.pendingLength = 0;
  }
}
