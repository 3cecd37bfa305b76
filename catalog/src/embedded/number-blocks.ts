/**
 * Small arrays of numbers read from a file, copied into shared blocks: an
 * array of its own per event is an object (or, past some 64 bytes, a buffer
 * outside the heap) for each, and at a hundred thousand events those, and the
 * collections they set off, are a good part of a start from disk. A block
 * stays alive while any of its arrays does.
 */
export class NumberBlocks<T extends Int32Array | Uint32Array> {
  private block: T;
  private used = 0;

  constructor(
    private readonly make: (length: number) => T,
    private readonly blockLength = 256 * 1024,
  ) {
    this.block = make(0);
  }

  /** `values` as an array of this kind, in a block shared with others. */
  copy(values: ArrayLike<number>): T {
    if (this.used + values.length > this.block.length) {
      this.block = this.make(Math.max(this.blockLength, values.length));
      this.used = 0;
    }
    const copied = this.block.subarray(this.used, this.used + values.length) as T;
    copied.set(values);
    this.used += values.length;
    return copied;
  }
}
