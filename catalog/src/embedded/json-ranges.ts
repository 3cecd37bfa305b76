import { backslash, closeBrace, closeBracket, comma, openBrace, openBracket, quote, stringEnd } from './json-bytes.js';

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

/** A member of a JSON object: its key, and where it sits (`keyStart` at the key's opening quote). */
export interface JsonMember {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

/**
 * The members of the object opening at `start`, in order, and where the
 * object ends: the pieces a view of the object is spliced from, without
 * parsing its values. Built for `JSON.stringify` output (no whitespace).
 */
export function objectMembers(json: Uint8Array, start: number): { members: JsonMember[]; end: number } {
  if (json[start] !== openBrace) throw new Error(`no JSON object at byte ${start}`);
  const members: JsonMember[] = [];
  let index = start + 1;
  if (json[index] === closeBrace) return { members, end: index + 1 };
  for (;;) {
    const keyEnd = afterString(json, index);
    const valueStart = keyEnd + 1;
    const valueEnd = afterValue(json, valueStart);
    members.push({ key: keyText(json, index, keyEnd), keyStart: index, valueStart, valueEnd });
    if (json[valueEnd] === closeBrace) return { members, end: valueEnd + 1 };
    if (json[valueEnd] !== comma) throw new Error(`malformed JSON object at byte ${valueEnd}`);
    index = valueEnd + 1;
  }
}

/** A key's text: its bytes as they stand unless it holds an escape, which only JSON's parser reads right. */
function keyText(json: Uint8Array, start: number, end: number): string {
  const bytes = Buffer.from(json.buffer, json.byteOffset + start, end - start);
  return bytes.includes(backslash) ? (JSON.parse(bytes.toString('utf8')) as string) : bytes.toString('utf8', 1, bytes.length - 1);
}

/** The [start, end) pairs of the elements of the array opening at `start`. */
export function arrayElements(json: Uint8Array, start: number): Uint32Array {
  if (json[start] !== openBracket) throw new Error(`no JSON array at byte ${start}`);
  return elementRanges(json, start + 1);
}

/** The index just past the value starting at `index`. */
function afterValue(json: Uint8Array, index: number): number {
  const first = json[index];
  if (first === quote) return afterString(json, index);
  if (first !== openBrace && first !== openBracket) {
    let position = index;
    while (position < json.length && json[position] !== comma && json[position] !== closeBrace && json[position] !== closeBracket) position += 1;
    return position;
  }
  let depth = 0;
  for (let position = index; position < json.length;) {
    const byte = json[position]!;
    if (byte === quote) {
      position = afterString(json, position);
      continue;
    }
    if (byte === openBrace || byte === openBracket) depth += 1;
    else if (byte === closeBrace || byte === closeBracket) {
      depth -= 1;
      if (depth === 0) return position + 1;
    }
    position += 1;
  }
  throw new Error('unterminated JSON value');
}

/** The [start, end) pairs of the elements of the array whose first element starts at `start`. */
function elementRanges(json: Uint8Array, start: number): Uint32Array {
  if (json[start] === closeBracket) return new Uint32Array(0);
  const ranges: number[] = [];
  for (let index = start; ;) {
    const end = afterValue(json, index);
    ranges.push(index, end);
    if (json[end] === closeBracket) return Uint32Array.from(ranges);
    if (json[end] !== comma) throw new Error(`unterminated JSON array at byte ${end}`);
    index = end + 1;
  }
}

/** The index just past the string opening at `index`; an unterminated one (bytes that are not an event's) is an error, not an endless scan. */
function afterString(json: Uint8Array, index: number): number {
  const end = stringEnd(json, index);
  if (end === -1) throw new Error(`unterminated JSON string at byte ${index}`);
  return end;
}

function startsWith(json: Uint8Array, prefix: Uint8Array, at: number): boolean {
  if (at + prefix.length > json.length) return false;
  for (let offset = 0; offset < prefix.length; offset += 1) if (json[at + offset] !== prefix[offset]) return false;
  return true;
}
