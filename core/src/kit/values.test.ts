import { describe, expect, test } from 'vitest';
import { complement, compact, fromBaseUnits, percentToFraction, pick, text, toEpochMs, toFraction, toIsoDate, toList, toNumber } from './values.js';

describe('one meaning of missing: absent, null, "" and "null" read as undefined, never 0', () => {
  test.each([undefined, null, '', '  ', 'null'])('%j', (value) => {
    expect(toNumber(value)).toBeUndefined();
    expect(toFraction(value)).toBeUndefined();
    expect(percentToFraction(value)).toBeUndefined();
    expect(fromBaseUnits(value, 6)).toBeUndefined();
    expect(toEpochMs(value)).toBeUndefined();
    expect(toList(value)).toBeUndefined();
    expect(text(value)).toBeUndefined();
  });
});

describe('numbers', () => {
  test.each([
    ['.48', 0.48],
    ['0.2325', 0.2325],
    [12, 12],
    [' 7 ', 7],
    ['abc', undefined],
    [Number.NaN, undefined],
    [Number.POSITIVE_INFINITY, undefined],
    [{}, undefined],
    // Past 2^53 a float is the model's type: the nearest double, never refused.
    ['9007199254740993', 9_007_199_254_740_992],
    ['123456789012345678901234.5', Number('123456789012345678901234.5')],
  ])('toNumber(%j) is %j', (value, expected) => {
    expect(toNumber(value)).toBe(expected);
  });

  test('prices are fractions of one: percent is divided without float noise, and noise past the bounds is clamped', () => {
    expect(percentToFraction(42.8)).toBe(0.428);
    expect(percentToFraction('57.2')).toBe(0.572);
    expect(toFraction('1.0000000002')).toBe(1);
    expect(complement(0.87)).toBe(0.13);
  });

  test.each([
    ['1500000', 6, 1.5],
    ['-1500000', 6, -1.5],
    ['1', 18, 1e-18],
    ['12345678900000000000000000000000', 18, 12_345_678_900_000],
    [2500, 2, 25],
  ])('fromBaseUnits(%j, %d) is %d, exact on the digits', (value, decimals, expected) => {
    expect(fromBaseUnits(value, decimals)).toBe(expected);
  });
});

describe('times', () => {
  test.each([
    [1781434901, 1_781_434_901_000],
    ['1781435071512', 1_781_435_071_512],
    ['2026-08-14T18:00:00Z', Date.UTC(2026, 7, 14, 18)],
    ['2026-08-14 17:45:00+00', Date.UTC(2026, 7, 14, 17, 45)],
    ['2028-11-07', Date.UTC(2028, 10, 7)],
    ['not a date', undefined],
  ])('toEpochMs(%j) is %j', (value, expected) => {
    expect(toEpochMs(value)).toBe(expected);
  });

  test.each([0, '0', -1, '', ' '])("a venue's unset time %j is unknown, never 1970-01-01", (value) => {
    expect(toEpochMs(value)).toBeUndefined();
    expect(toIsoDate(value)).toBeUndefined();
  });

  test('toIsoDate gives ISO text from epoch seconds', () => {
    expect(toIsoDate(1781434901)).toBe('2026-06-14T11:01:41.000Z');
  });
});

describe('lists and records', () => {
  test.each([
    ['["Yes", "No"]', ['Yes', 'No']],
    [
      [1, 2],
      ['1', '2'],
    ],
    ['[]', []],
    ['not json', undefined],
    ['{"a": 1}', undefined],
  ])('toList(%j) is %j: an unreadable list is unknown, not empty', (value, expected) => {
    expect(toList(value)).toEqual(expected);
  });

  test('compact leaves out undefined members and keeps null, 0 and ""', () => {
    expect(compact({ a: undefined, b: null, c: 0, d: '' })).toEqual({ b: null, c: 0, d: '' });
    expect(Object.keys(compact({ a: undefined }))).toEqual([]);
  });

  test('pick keeps the named members the venue sent, null included', () => {
    expect(pick({ a: 1, b: null, c: 3 }, ['a', 'b', 'z'])).toEqual({ a: 1, b: null });
  });
});
