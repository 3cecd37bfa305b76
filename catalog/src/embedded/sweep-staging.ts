import { open, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { ByteSlabs, SlabMark } from './byte-slabs.js';
import { FileBytes } from './file-bytes.js';
import type { EventBytes } from './file-bytes.js';

/**
 * Where a sweep keeps the bytes of its new and changed events until it
 * commits. Each value is first copied into a buffer the sweep reuses (`bytes`),
 * where it can still be taken back (`rollback`: an event found unchanged),
 * and `lasting` answers where it will stay once `flush`ed.
 */
export interface SweepBytes {
  /** A copy of the bytes, readable until the next `flush`. */
  bytes(bytes: Uint8Array): Buffer;
  mark(): StagingMark;
  /** Takes back every value kept since `mark`. */
  rollback(mark: StagingMark): void;
  /** Where a value `bytes` answered will be once flushed: what the sweep's entry keeps. */
  lasting(kept: Buffer): EventBytes;
  /** Makes every value kept so far readable where `lasting` said. */
  flush(): Promise<void>;
  /** Drops everything the sweep kept; called once it is committed (its entries moved to the catalog's files) or abandoned. */
  discard(): Promise<void>;
}

export type StagingMark = SlabMark | number;

/** A catalog without a folder keeps a sweep's bytes in memory slabs, which its entries go on reading. */
export function slabStaging(slabs: ByteSlabs): SweepBytes {
  return {
    bytes: (bytes) => slabs.bytes(bytes),
    mark: () => slabs.mark(),
    rollback: (mark) => slabs.rollback(mark as SlabMark),
    lasting: (kept) => kept,
    flush: async () => {},
    discard: async () => {},
  };
}

/**
 * A sweep's bytes staged in a file of their own in the catalog's folder,
 * written a page at a time from one reused buffer. Fresh memory costs a page
 * fault per 4 KiB on its first write, tens of microseconds each on a virtual
 * machine: a first sweep of a large venue holding its hundreds of megabytes
 * in new slabs spent more there than on everything else it does. The file's
 * pages the kernel fills in bulk, and a commit copies them into the journal or
 * snapshot as it would copy bytes from memory. The file is deleted when the
 * sweep ends; one a crash left behind is deleted when the catalog is next
 * opened (`CatalogFiles.load`).
 */
export class FileStaging implements SweepBytes {
  private pending = Buffer.allocUnsafeSlow(1 << 20);
  private used = 0;
  /** Bytes in the file: where `pending` goes on the next flush. */
  private flushed = 0;
  /** Where each value kept since the last flush starts in `pending`. */
  private readonly places = new Map<Buffer, number>();
  private discarded = false;

  private constructor(
    private readonly handle: FileHandle,
    private readonly file: FileBytes,
  ) {}

  /** Creates the file, which must not exist. */
  static async create(path: string): Promise<FileStaging> {
    const handle = await open(path, 'wx');
    return new FileStaging(handle, new FileBytes(path));
  }

  bytes(bytes: Uint8Array): Buffer {
    if (this.used + bytes.length > this.pending.length) {
      // Values already answered keep the old buffer's copy; the new one carries on from the same offsets.
      const grown = Buffer.allocUnsafeSlow(Math.max(this.pending.length * 2, this.used + bytes.length));
      this.pending.copy(grown, 0, 0, this.used);
      this.pending = grown;
    }
    const start = this.used;
    this.pending.set(bytes, start);
    this.used += bytes.length;
    const kept = this.pending.subarray(start, this.used);
    this.places.set(kept, start);
    return kept;
  }

  mark(): number {
    return this.used;
  }

  rollback(mark: StagingMark): void {
    this.used = mark as number;
  }

  lasting(kept: Buffer): EventBytes {
    const start = this.places.get(kept);
    if (start === undefined) throw new Error('bytes not kept by this sweep since its last flush');
    return this.file.range(this.flushed + start, kept.length);
  }

  async flush(): Promise<void> {
    for (let written = 0; written < this.used;) {
      written += (await this.handle.write(this.pending, written, this.used - written, this.flushed + written)).bytesWritten;
    }
    this.flushed += this.used;
    this.used = 0;
    this.places.clear();
  }

  async discard(): Promise<void> {
    if (this.discarded) return;
    this.discarded = true;
    this.file.close();
    await this.handle.close();
    await unlink(this.file.path).catch(() => undefined);
  }
}
