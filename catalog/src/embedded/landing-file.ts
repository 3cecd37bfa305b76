import { closeSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { FileBytes } from './file-bytes.js';
import type { FileRange } from './file-bytes.js';

/**
 * Where a sweep's event bytes land while the sweep runs, in a store with a
 * folder: a scratch file written through one reused buffer. Kept in memory,
 * a large venue's sweep would take hundreds of megabytes of fresh pages
 * whose first touch costs, on a virtual machine, several times what
 * serialising the events does (measured: 180 MB into fresh buffers 0.8 s,
 * through one buffer into a file 0.09 s); written here they go through the
 * page cache instead. The commit copies them into the journal or snapshot,
 * then the file goes. It is never a durable record: a crash leaves one
 * behind, which the next open deletes.
 */
export class LandingFile {
  static readonly suffix = '.landing';
  private readonly reader: FileBytes;
  private fd: number | undefined;
  private readonly chunk: Buffer;
  private pending = 0;
  private written = 0;

  constructor(
    readonly path: string,
    chunkBytes = 1 << 20,
  ) {
    this.fd = openSync(path, 'wx');
    this.reader = new FileBytes(path);
    this.chunk = Buffer.allocUnsafeSlow(chunkBytes);
  }

  /** The text as UTF-8 in the file; readable once `flush` has run. */
  text(text: string): FileRange {
    const length = Buffer.byteLength(text);
    if (this.pending + length > this.chunk.length) this.flush();
    const offset = this.written + this.pending;
    if (length > this.chunk.length) this.write(Buffer.from(text, 'utf8'), length);
    else {
      this.chunk.write(text, this.pending, length, 'utf8');
      this.pending += length;
    }
    return this.reader.range(offset, length);
  }

  /** Writes what the buffer holds, so every range handed out reads back. */
  flush(): void {
    if (this.pending === 0) return;
    this.write(this.chunk, this.pending);
    this.pending = 0;
  }

  /** Closes and deletes the file: nothing reads from it any more. */
  discard(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    this.reader.close();
    unlinkSync(this.path);
  }

  private write(bytes: Buffer, length: number): void {
    if (this.fd === undefined) throw new Error(`sweep landing file ${this.path} was discarded`);
    for (let done = 0; done < length;) done += writeSync(this.fd, bytes, done, length - done, this.written + done);
    this.written += length;
  }
}
