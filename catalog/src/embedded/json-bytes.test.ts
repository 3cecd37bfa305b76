import { describe, expect, it } from 'vitest';
import { stringEnd } from './json-bytes.js';

describe('stringEnd', () => {
  const bytes = (text: string) => Buffer.from(text, 'utf8');

  it('ends a string past its closing quote, skipping quotes an odd run of backslashes escapes', () => {
    for (const value of ['', 'plain', 'say "hi"', 'ends with \\', '\\\\"', 'é "ü" \\\\\\"', '\u2028 \\u0022']) {
      const json = bytes(`${JSON.stringify(value)},"next"`);
      expect(stringEnd(json, 0)).toBe(bytes(JSON.stringify(value)).length);
    }
  });

  it('is -1 for a string that does not close before the bound', () => {
    const json = bytes('"abc","d"');
    expect(stringEnd(json, 0, 4)).toBe(-1);
    expect(stringEnd(json, 0, 5)).toBe(5);
    expect(stringEnd(bytes('"open \\"'), 0)).toBe(-1);
  });
});
