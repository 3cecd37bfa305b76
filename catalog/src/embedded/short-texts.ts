import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Which single characters and pairs of adjacent characters (UTF-16 units)
 * the texts hold: what narrows a search for a text too short for the trigram
 * index (`AI`, `UK`, `F1`). A short text no text holds is answered at once,
 * with nothing; one that some text holds is confirmed text by text, once,
 * and what it holds kept like any other search's (see text-search.ts). A
 * catalog holds a few hundred to a few thousand such texts, so however short
 * texts are varied, each costs a pass over the texts at most once while it
 * is kept, never one per request.
 */
export class ShortTexts {
  private constructor(
    private readonly count: number,
    private readonly units: Uint8Array,
    private readonly pairs: ReadonlySet<number>,
  ) {}

  /** Texts as the trigram index takes them (lower-case); lets requests in after about every `unitsPerTurn` characters read. */
  static async build(texts: readonly string[], unitsPerTurn = 250_000): Promise<ShortTexts> {
    const units = new Uint8Array(65_536);
    const pairs = new Set<number>();
    let position = 0;
    while (position < texts.length) {
      let read = 0;
      for (; position < texts.length && read < unitsPerTurn; position += 1) {
        const text = texts[position]!;
        for (let index = 0; index < text.length; index += 1) {
          const unit = text.charCodeAt(index);
          units[unit] = 1;
          if (index > 0) pairs.add(pairOf(text.charCodeAt(index - 1), unit));
        }
        read += text.length;
      }
      if (position < texts.length) await nextTurn();
    }
    return new ShortTexts(texts.length, units, pairs);
  }

  /**
   * Positions, ascending, that may hold `needle` (lower-case, under three
   * units): none where no text holds it, every one where some text does.
   * Undefined for a longer needle, which is the trigram index's.
   */
  candidates(needle: string): Int32Array | undefined {
    if (needle.length > 2) return undefined;
    const held =
      needle.length === 0 ||
      (needle.length === 1 ? this.units[needle.charCodeAt(0)] === 1 : this.pairs.has(pairOf(needle.charCodeAt(0), needle.charCodeAt(1))));
    if (!held) return new Int32Array(0);
    const every = new Int32Array(this.count);
    for (let position = 0; position < every.length; position += 1) every[position] = position;
    return every;
  }
}

function pairOf(first: number, second: number): number {
  return first * 65_536 + second;
}
