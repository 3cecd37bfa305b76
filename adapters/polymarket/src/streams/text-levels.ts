import { priceIndex } from '@predgate/core';
import type { PriceLevel } from './market-rows.js';

/**
 * One side of a book kept as the venue's text: one level per price, compared
 * by value ("0.50" and "0.5" are one level, the latest text wins), size 0
 * removing it, in price order as levels change (a binary search, then the
 * levels after it moved by one). Held as two flat arrays, not an object per
 * level: at tens of thousands of books the recorder keeps millions of levels,
 * and every object kept is one more for the garbage collector to trace and
 * one more cache line a change reads. Only plain decimal text is kept (digits,
 * sign, point, exponent), so a side is written as JSON text directly.
 */
export class TextLevels {
  /** Prices ascending as numbers. */
  private readonly keys: number[] = [];
  /** Each level's price text and size text, at `2 * index` and `2 * index + 1`. */
  private readonly texts: string[] = [];

  get count(): number {
    return this.keys.length;
  }

  /** Sets the level at its price (size 0 removes it); false, with nothing changed, when the level is not plain decimal text. */
  set(price: string, size: string): boolean {
    if (!isPlainDecimal(price) || !isPlainDecimal(size)) return false;
    const key = Number(price);
    const amount = Number(size);
    if (!Number.isFinite(key) || !Number.isFinite(amount) || amount < 0) return false;
    const index = priceIndex(this.keys, key);
    const present = this.keys[index] === key;
    if (amount === 0) {
      if (present) this.remove(index);
    } else if (present) {
      this.texts[2 * index] = price;
      this.texts[2 * index + 1] = size;
    } else {
      this.insert(index, key, price, size);
    }
    return true;
  }

  clear(): void {
    this.keys.length = 0;
    this.texts.length = 0;
  }

  /** Every level in price order, `ascending` or `descending`. */
  levels(order: 'ascending' | 'descending'): PriceLevel[] {
    const levels: PriceLevel[] = [];
    for (let step = 0; step < this.keys.length; step += 1) {
      const index = order === 'ascending' ? step : this.keys.length - 1 - step;
      levels.push({ price: this.texts[2 * index]!, size: this.texts[2 * index + 1]! });
    }
    return levels;
  }

  // Levels move by hand, not by `splice`, which makes the array it returns on every call; a side has a few dozen levels.
  private insert(index: number, key: number, price: string, size: string): void {
    const { keys, texts } = this;
    keys.push(key);
    texts.push(price, size);
    for (let at = keys.length - 1; at > index; at -= 1) {
      keys[at] = keys[at - 1]!;
      texts[2 * at] = texts[2 * at - 2]!;
      texts[2 * at + 1] = texts[2 * at - 1]!;
    }
    keys[index] = key;
    texts[2 * index] = price;
    texts[2 * index + 1] = size;
  }

  private remove(index: number): void {
    const { keys, texts } = this;
    for (let at = index + 1; at < keys.length; at += 1) {
      keys[at - 1] = keys[at]!;
      texts[2 * at - 2] = texts[2 * at]!;
      texts[2 * at - 1] = texts[2 * at + 1]!;
    }
    keys.pop();
    texts.pop();
    texts.pop();
  }

  /**
   * Writes `JSON.stringify(this.levels(order))` into `target` from `offset`,
   * one byte a character (the text is plain decimal, needing no escapes), and
   * returns the offset after it; -1 when it does not fit (the bytes from
   * `offset` on are then undefined). Bytes, not a string: a book's text built
   * by concatenation, flattened and encoded cost the recorder more than
   * writing it into its journal buffer directly.
   */
  writeJson(order: 'ascending' | 'descending', target: Uint8Array, offset: number): number {
    if (offset >= target.length) return -1;
    let at = offset;
    target[at++] = openBracket;
    for (let step = 0; step < this.keys.length; step += 1) {
      const index = order === 'ascending' ? step : this.keys.length - 1 - step;
      const price = this.texts[2 * index]!;
      const size = this.texts[2 * index + 1]!;
      // A comma, `{"price":"`, `","size":"`, `"}`, and a closing bracket after the last.
      if (at + price.length + size.length + 24 > target.length) return -1;
      if (step > 0) target[at++] = comma;
      at = writeAscii(target, at, priceKey);
      at = writeAscii(target, at, price);
      at = writeAscii(target, at, sizeKey);
      at = writeAscii(target, at, size);
      at = writeAscii(target, at, levelEnd);
    }
    if (at >= target.length) return -1;
    target[at++] = closeBracket;
    return at;
  }
}

const openBracket = 0x5b;
const closeBracket = 0x5d;
const comma = 0x2c;
const priceKey = '{"price":"';
const sizeKey = '","size":"';
const levelEnd = '"}';

/** Writes ASCII text (the caller checked it fits), one byte a character; returns the offset after it. */
function writeAscii(target: Uint8Array, offset: number, text: string): number {
  for (let index = 0; index < text.length; index += 1) target[offset + index] = text.charCodeAt(index);
  return offset + text.length;
}

/** Digits, `+`, `-`, `.`, `e` and `E` only, at least one character: text JSON holds as it is. */
function isPlainDecimal(text: string): boolean {
  if (text.length === 0) return false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    // 0-9, '+', '-', '.', 'E', 'e'
    if (!((code >= 48 && code <= 57) || code === 43 || code === 45 || code === 46 || code === 69 || code === 101)) return false;
  }
  return true;
}
