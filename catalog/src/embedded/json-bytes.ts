/** JSON's punctuation as bytes, for the code that reads and writes stored JSON without parsing it. */
export const quote = 0x22;
export const backslash = 0x5c;
export const comma = 0x2c;
export const colon = 0x3a;
export const openBracket = 0x5b;
export const closeBracket = 0x5d;
export const openBrace = 0x7b;
export const closeBrace = 0x7d;

/**
 * The index just past the string whose opening quote is at `index`, or -1
 * where it does not close before `end` (UTF-8 continuation bytes never equal
 * `"` or `\`). The closing quote is found by the typed array's own search
 * rather than a byte at a time in JavaScript: strings are most of an event's
 * bytes, and every page of the pass-through scans its events. A quote
 * preceded by an odd run of backslashes is escaped, and skipped.
 */
export function stringEnd(json: Uint8Array, index: number, end = json.length): number {
  for (let close = json.indexOf(quote, index + 1); close !== -1 && close < end; close = json.indexOf(quote, close + 1)) {
    let backslashes = 0;
    while (json[close - 1 - backslashes] === backslash) backslashes += 1;
    if (backslashes % 2 === 0) return close + 1;
  }
  return -1;
}
