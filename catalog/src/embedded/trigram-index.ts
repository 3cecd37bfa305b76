/**
 * Substring search without scanning: every three-character window of each
 * text maps to the positions of the texts containing it. A query's rarest
 * window gives a short candidate list, in position order, that a plain
 * `includes` then confirms.
 */
export class TrigramIndex {
  private readonly postings: Map<string, Int32Array>;

  private constructor(postings: Map<string, Int32Array>) {
    this.postings = postings;
  }

  /** Texts are indexed by their position in `texts`, which must already be lower-case. */
  static async build(texts: readonly string[], yieldEvery = 5_000): Promise<TrigramIndex> {
    const growing = new Map<string, number[]>();
    for (let position = 0; position < texts.length; position += 1) {
      const text = texts[position]!;
      const seen = new Set<string>();
      for (let start = 0; start + 3 <= text.length; start += 1) {
        const trigram = text.slice(start, start + 3);
        if (seen.has(trigram)) continue;
        seen.add(trigram);
        const list = growing.get(trigram);
        if (list) list.push(position);
        else growing.set(trigram, [position]);
      }
      // Building for a large venue takes a while: let requests in between.
      if (position % yieldEvery === yieldEvery - 1) await new Promise((resolve) => setImmediate(resolve));
    }
    const postings = new Map<string, Int32Array>();
    for (const [trigram, list] of growing) postings.set(trigram, Int32Array.from(list));
    return new TrigramIndex(postings);
  }

  /**
   * Positions, ascending, that may contain `needle` (lower-case): a superset of
   * the true matches, those holding every window of the needle (the lists
   * intersected from the rarest up). Undefined when the needle is too short
   * to narrow anything.
   */
  candidates(needle: string): Int32Array | undefined {
    if (needle.length < 3) return undefined;
    const lists: Int32Array[] = [];
    for (let start = 0; start + 3 <= needle.length; start += 1) {
      const list = this.postings.get(needle.slice(start, start + 3));
      if (!list) return new Int32Array(0);
      lists.push(list);
    }
    lists.sort((a, b) => a.length - b.length);
    let found = lists[0]!;
    for (const list of lists.slice(1)) {
      if (found.length === 0) break;
      found = intersect(found, list);
    }
    return found;
  }
}

/** The values in both ascending lists; walks the longer one by binary search from where the last value was found. */
function intersect(short: Int32Array, long: Int32Array): Int32Array {
  const both: number[] = [];
  let low = 0;
  for (const value of short) {
    let high = long.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (long[middle]! < value) low = middle + 1;
      else high = middle;
    }
    if (low === long.length) break;
    if (long[low] === value) both.push(value);
  }
  return Int32Array.from(both);
}
