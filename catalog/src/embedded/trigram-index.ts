import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Substring search without scanning: every three-character window of each
 * text maps to the positions of the texts containing it. A query's windows
 * give a short candidate list, in position order, that a plain `includes`
 * then confirms.
 *
 * A window is a number, not a string: each character seen gets a 10-bit code,
 * and three codes make a small integer key, so building the index over
 * hundreds of thousands of titles allocates no string per window. Characters
 * past the first 1,023 distinct ones share code 0; their windows merge, which
 * only widens the candidates.
 */
export class TrigramIndex {
  private constructor(
    private readonly codes: CharCodes,
    private readonly postings: Map<number, Int32Array>,
  ) {}

  /**
   * Texts are indexed by their position in `texts`, which must already be
   * lower-case. Building for a large venue takes a while, so it lets requests
   * in after about every `windowsPerTurn` windows, in both of its steps.
   */
  static async build(texts: readonly string[], windowsPerTurn = 250_000): Promise<TrigramIndex> {
    const codes = new CharCodes();
    const growing = new Map<number, number[]>();
    let position = 0;
    for (;;) {
      position = addTexts(texts, position, windowsPerTurn, codes, growing);
      if (position === texts.length) break;
      await nextTurn();
    }
    const postings = new Map<number, Int32Array>();
    const lists = growing.entries();
    while (packLists(lists, windowsPerTurn, postings)) await nextTurn();
    return new TrigramIndex(codes, postings);
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
    let window = 0;
    for (let index = 0; index < needle.length; index += 1) {
      const code = this.codes.of(needle.charCodeAt(index));
      // A character no text has: nothing can match.
      if (code === undefined) return new Int32Array(0);
      window = ((window << windowBits) | code) & windowMask;
      if (index < 2) continue;
      const list = this.postings.get(window);
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

const codeBits = 10;
const windowBits = codeBits;
const windowMask = (1 << (3 * codeBits)) - 1;

/** A small code per UTF-16 unit, in the order first seen; 0 once the codes run out. */
class CharCodes {
  private readonly table = new Uint16Array(65_536);
  private next = 1;

  assign(unit: number): number {
    let code = this.table[unit]!;
    if (code === 0 && this.next < 1 << codeBits) {
      code = this.next++;
      this.table[unit] = code;
    }
    return code;
  }

  /** The unit's code, or undefined for a unit no text had (while codes were left, such a unit got one). */
  of(unit: number): number | undefined {
    const code = this.table[unit]!;
    if (code !== 0) return code;
    return this.next < 1 << codeBits ? undefined : 0;
  }
}

/**
 * Adds texts from `position` on, each window to its growing list, until about
 * `windows` windows are added (a slice of the build between two turns of the
 * event loop); returns the position of the first text not added.
 */
function addTexts(texts: readonly string[], position: number, windows: number, codes: CharCodes, growing: Map<number, number[]>): number {
  let added = 0;
  while (position < texts.length && added < windows) {
    const text = texts[position]!;
    let window = 0;
    for (let index = 0; index < text.length; index += 1) {
      window = ((window << windowBits) | codes.assign(text.charCodeAt(index))) & windowMask;
      if (index < 2) continue;
      const list = growing.get(window);
      // Positions only grow, so a window seen twice in one text is the list's last entry.
      if (!list) growing.set(window, [position]);
      else if (list[list.length - 1] !== position) list.push(position);
    }
    added += text.length;
    position += 1;
  }
  return position;
}

/** Packs grown lists into `postings` until about `positions` positions are packed; true while lists are left. */
function packLists(lists: Iterator<[number, number[]]>, positions: number, postings: Map<number, Int32Array>): boolean {
  let packed = 0;
  while (packed < positions) {
    const next = lists.next();
    if (next.done) return false;
    const [window, list] = next.value;
    postings.set(window, Int32Array.from(list));
    packed += list.length;
  }
  return true;
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
