/**
 * A lookup map over a partition's items that is not on the path to serving:
 * building maps of every market and outcome id is most of what building a
 * large partition costs, so they are built after it is published, a slice at
 * a time between requests, or at once by the first lookup that needs them.
 */
export class LazyIndex<T, K, V> {
  private readonly map = new Map<K, V>();
  private built = 0;

  constructor(
    private readonly items: readonly T[],
    private readonly add: (map: Map<K, V>, item: T) => void,
  ) {}

  get(key: K): V | undefined {
    this.buildUpTo(this.items.length);
    return this.map.get(key);
  }

  /** Builds the rest a slice at a time, letting other work in between. */
  async warm(slice = 10_000): Promise<void> {
    while (this.built < this.items.length) {
      this.buildUpTo(this.built + slice);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private buildUpTo(end: number): void {
    const last = Math.min(end, this.items.length);
    for (; this.built < last; this.built += 1) this.add(this.map, this.items[this.built]!);
  }
}
