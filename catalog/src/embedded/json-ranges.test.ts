import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { arrayMemberRanges } from './json-ranges.js';

function elements(value: unknown, key: string): unknown[] | undefined {
  const bytes = Buffer.from(JSON.stringify(value));
  const ranges = arrayMemberRanges(bytes, key);
  if (!ranges) return undefined;
  const found: unknown[] = [];
  for (let index = 0; index < ranges.length; index += 2) found.push(JSON.parse(bytes.subarray(ranges[index], ranges[index + 1]).toString('utf8')));
  return found;
}

describe('array member ranges', () => {
  test('each range is exactly one element of the top-level member, in order', () => {
    const event = { id: 'e1', markets: [{ marketId: 'a', outcomes: [{ label: 'Yes' }] }, 3, 'x', [1, [2]], null, { nested: { markets: [9] } }] };
    expect(elements(event, 'markets')).toEqual(event.markets);
  });

  test.each([
    ['an empty list', { markets: [] }, []],
    ['text that looks like the member, and a nested member of that name, come first', { note: '"markets":[1]', meta: { markets: [2] }, markets: [3] }, [3]],
    [
      'escaped quotes and backslashes inside strings',
      { title: 'a \\"] , [ { \\\\', markets: ['"]', '\\', { t: 'é 🚀 日本' }] },
      ['"]', '\\', { t: 'é 🚀 日本' }],
    ],
  ])('%s', (_name, value, expected) => {
    expect(elements(value, 'markets')).toEqual(expected);
  });

  test('bytes cut off inside a string (not an event as stored) are an error, not an endless scan', () => {
    expect(() => arrayMemberRanges(Buffer.from('{"markets":[{"title":"cut off'), 'markets')).toThrow('unterminated JSON string');
    expect(() => arrayMemberRanges(Buffer.from('{"id":"e1\\'), 'markets')).toThrow('unterminated JSON string');
  });

  test('an object without the member has no ranges', () => {
    expect(elements({ meta: { markets: [1] }, title: 'markets' }, 'markets')).toBeUndefined();
  });

  test('agrees with JSON.parse on arbitrary objects', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue()), (rest, markets) => {
        const value = { ...rest, markets };
        expect(elements(value, 'markets')).toEqual(JSON.parse(JSON.stringify(markets)));
      }),
      { numRuns: 300 },
    );
  });
});
