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
   * the true matches. Undefined when the needle is too short to narrow anything.
   */
  candidates(needle: string): Int32Array | undefined {
    if (needle.length < 3) return undefined;
    let rarest: Int32Array | undefined;
    for (let start = 0; start + 3 <= needle.length; start += 1) {
      const list = this.postings.get(needle.slice(start, start + 3));
      if (!list) return new Int32Array(0);
      if (!rarest || list.length < rarest.length) rarest = list;
    }
    return rarest;
  }
}
