/**
 * Many event-sized byte strings packed into a few large buffers: one
 * allocation per few megabytes instead of one per event, which is what makes
 * keeping hundreds of thousands of them cheap (every buffer of its own costs
 * an allocation, a heap object and external-memory bookkeeping the garbage
 * collector reacts to). A partition's bytes share slabs and go with it.
 */
export class ByteSlabs {
  private slab: Buffer = Buffer.alloc(0);
  private used = 0;

  constructor(private readonly slabBytes = 4 * 2 ** 20) {}

  /** A copy of the bytes, in a slab. */
  bytes(bytes: Uint8Array): Buffer {
    const [slab, start] = this.room(bytes.length);
    slab.set(bytes, start);
    return slab.subarray(start, start + bytes.length);
  }

  /** Where the next value goes: `rollback` to it gives back the room of every value stored since. */
  mark(): SlabMark {
    return { slab: this.slab, used: this.used };
  }

  /** Takes back the room of the values stored since `mark`: they must not be read again. */
  rollback(mark: SlabMark): void {
    // A slab started since holds only values stored after the mark.
    this.used = mark.slab === this.slab ? mark.used : 0;
  }

  private room(length: number): [Buffer, number] {
    // A value larger than a quarter slab gets a buffer of its own, so slabs are never mostly waste.
    if (length > this.slabBytes / 4) return [Buffer.allocUnsafeSlow(length), 0];
    if (this.used + length > this.slab.length) {
      this.slab = Buffer.allocUnsafeSlow(this.slabBytes);
      this.used = 0;
    }
    const start = this.used;
    this.used += length;
    return [this.slab, start];
  }
}

export interface SlabMark {
  slab: Buffer;
  used: number;
}
