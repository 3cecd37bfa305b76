/**
 * Where the elements of one array member of a JSON object sit in its UTF-8
 * bytes, found by a single scan without parsing: a stored event's markets can
 * then be sent, or parsed one by one, without parsing the whole event. Only
 * the object's own (top-level) member counts; strings are skipped whole, so a
 * key-like text inside a value or a nested member of the same name is never
 * taken for it. Built for `JSON.stringify` output (no whitespace).
 */
export function arrayMemberRanges(json: Uint8Array, key: string): Uint32Array | undefined {
  const prefix = Buffer.from(`${JSON.stringify(key)}:[`);
  let depth = 0;
  for (let index = 0; index < json.length;) {
    const byte = json[index]!;
    if (byte === quote) {
      const keyPosition = depth === 1 && (json[index - 1] === openBrace || json[index - 1] === comma);
      if (keyPosition && startsWith(json, prefix, index)) return elementRanges(json, index + prefix.length);
      index = afterString(json, index);
      continue;
    }
    if (byte === openBrace || byte === openBracket) depth += 1;
    else if (byte === closeBrace || byte === closeBracket) depth -= 1;
    index += 1;
  }
  return undefined;
}

/** The [start, end) pairs of the elements of the array whose first element starts at `start`. */
function elementRanges(json: Uint8Array, start: number): Uint32Array {
  const ranges: number[] = [];
  if (json[start] === closeBracket) return new Uint32Array(0);
  let depth = 0;
  let elementStart = start;
  for (let index = start; index < json.length;) {
    const byte = json[index]!;
    if (byte === quote) {
      index = afterString(json, index);
      continue;
    }
    if (byte === openBrace || byte === openBracket) depth += 1;
    else if ((byte === closeBrace || byte === closeBracket) && depth > 0) depth -= 1;
    else if (depth === 0 && (byte === comma || byte === closeBracket)) {
      ranges.push(elementStart, index);
      if (byte === closeBracket) return Uint32Array.from(ranges);
      elementStart = index + 1;
    }
    index += 1;
  }
  throw new Error('unterminated JSON array');
}

/** The index just past the string opening at `index` (escapes skipped; UTF-8 continuation bytes never equal `"` or `\`). */
function afterString(json: Uint8Array, index: number): number {
  let position = index + 1;
  while (json[position] !== quote) position += json[position] === backslash ? 2 : 1;
  return position + 1;
}

function startsWith(json: Uint8Array, prefix: Uint8Array, at: number): boolean {
  if (at + prefix.length > json.length) return false;
  for (let offset = 0; offset < prefix.length; offset += 1) if (json[at + offset] !== prefix[offset]) return false;
  return true;
}

const quote = 0x22;
const backslash = 0x5c;
const comma = 0x2c;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
