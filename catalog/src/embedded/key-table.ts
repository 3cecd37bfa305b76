/**
 * A lookup from string keys (market ids, outcome ids, slugs) to the items
 * holding them, kept as two typed arrays, the keys' 32-bit hashes sorted and
 * the item positions beside them, instead of a Map. A venue's million outcome
 * ids then cost 8 bytes each rather than a Map entry, and add nothing to what
 * the garbage collector walks. A lookup binary-searches the hash and confirms
 * each item found by its key, so a collision costs a comparison, not a wrong
 * answer.
 *
 * Built after the partition is published, a slice at a time between
 * requests, or at once by the first lookup that needs it.
 */
export class KeyTable<T> {
  // Sized for a key per item, the usual case, so most tables are never grown and copied.
  private hashes: Uint32Array;
  private positions: Uint32Array;
  private count = 0;
  private hashed = 0;
  private sorted = false;

  constructor(
    private readonly items: readonly T[],
    /** The item's keys: one, several, or none. */
    private readonly keysOf: (item: T) => string | readonly string[] | null,
    /**
     * Where a key text holds several keys joined by this one character (a
     * market's packed outcome ids): each is hashed where it sits, not split
     * out into a string of its own first.
     */
    private readonly separator?: string,
  ) {
    this.hashes = new Uint32Array(Math.max(items.length, 16));
    this.positions = new Uint32Array(this.hashes.length);
  }

  /** Every item holding `key`, in item order. */
  all(key: string): T[] {
    this.build();
    const hash = hashOf(key, 0, key.length);
    const found: T[] = [];
    let previous = -1;
    for (let at = lowerBound(this.hashes, this.count, hash); at < this.count && this.hashes[at] === hash; at += 1) {
      // An item holding the key twice is listed twice, side by side (positions ascend within a hash).
      const position = this.positions[at]!;
      if (position === previous) continue;
      previous = position;
      const item = this.items[position]!;
      if (this.holds(this.keysOf(item), key)) found.push(item);
    }
    return found;
  }

  /** The last item holding `key` (as a Map set in item order would keep). */
  last(key: string): T | undefined {
    return this.all(key).at(-1);
  }

  /** Builds the rest a slice at a time, letting other work in between. */
  async warm(slice = 50_000): Promise<void> {
    while (this.hashed < this.items.length) {
      this.hashUpTo(this.hashed + slice);
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.build();
  }

  private build(): void {
    if (this.sorted) return;
    this.hashUpTo(this.items.length);
    [this.hashes, this.positions] = sortByHash(this.hashes.slice(0, this.count), this.positions.slice(0, this.count));
    this.sorted = true;
  }

  private hashUpTo(end: number): void {
    const last = Math.min(end, this.items.length);
    for (; this.hashed < last; this.hashed += 1) {
      const keys = this.keysOf(this.items[this.hashed]!);
      if (keys === null) continue;
      if (typeof keys !== 'string') for (const key of keys) this.add(hashOf(key, 0, key.length), this.hashed);
      else if (this.separator === undefined) this.add(hashOf(keys, 0, keys.length), this.hashed);
      else {
        for (let start = 0; ;) {
          const end = keys.indexOf(this.separator, start);
          this.add(hashOf(keys, start, end === -1 ? keys.length : end), this.hashed);
          if (end === -1) break;
          start = end + 1;
        }
      }
    }
  }

  private add(hash: number, position: number): void {
    if (this.count === this.hashes.length) {
      this.hashes = grown(this.hashes);
      this.positions = grown(this.positions);
    }
    this.hashes[this.count] = hash;
    this.positions[this.count] = position;
    this.count += 1;
  }

  private holds(keys: string | readonly string[] | null, key: string): boolean {
    if (keys === key) return true;
    if (typeof keys === 'string') return this.separator !== undefined && keys.split(this.separator).includes(key);
    return keys !== null && keys.includes(key);
  }
}

/** FNV-1a over the UTF-16 units of `text` from `start` to `end`. */
function hashOf(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

function grown(array: Uint32Array): Uint32Array {
  const larger = new Uint32Array(array.length * 2);
  larger.set(array);
  return larger;
}

/** The first index whose hash is at least `hash`. */
function lowerBound(hashes: Uint32Array, count: number, hash: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (hashes[middle]! < hash) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Sorts the pairs by hash, positions following, in two stable radix passes
 * of 16 bits: equal hashes keep the order they were added in (item order).
 */
function sortByHash(hashes: Uint32Array, positions: Uint32Array): [Uint32Array, Uint32Array] {
  let [fromHashes, fromPositions]: [Uint32Array, Uint32Array] = [hashes, positions];
  let [toHashes, toPositions]: [Uint32Array, Uint32Array] = [new Uint32Array(hashes.length), new Uint32Array(hashes.length)];
  for (const shift of [0, 16]) {
    const starts = new Uint32Array(65_537);
    for (const hash of fromHashes) starts[((hash >>> shift) & 0xffff) + 1]! += 1;
    for (let digit = 1; digit < starts.length; digit += 1) starts[digit]! += starts[digit - 1]!;
    for (let index = 0; index < fromHashes.length; index += 1) {
      const to = starts[(fromHashes[index]! >>> shift) & 0xffff]!++;
      toHashes[to] = fromHashes[index]!;
      toPositions[to] = fromPositions[index]!;
    }
    [fromHashes, fromPositions, toHashes, toPositions] = [toHashes, toPositions, fromHashes, fromPositions];
  }
  return [fromHashes, fromPositions];
}
