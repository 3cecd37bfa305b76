import { expect, test } from 'vitest';
import { readHybrid } from '../src/page-rows.js';

test('run-length and bit-packed runs decode to their values, and decoding stops once the output is full', () => {
  // A run of five 1s (header 5 << 1), then one bit-packed group of eight values (header 1 << 1 | 1), least significant bit first.
  const bytes = Uint8Array.of(5 << 1, 1, (1 << 1) | 1, 0b1011_0010);
  const levels = new Uint8Array(13);
  readHybrid(bytes, 1, levels);
  expect([...levels]).toEqual([1, 1, 1, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1]);
  const first = new Int32Array(3);
  readHybrid(bytes, 1, first);
  expect([...first]).toEqual([1, 1, 1]);
});

test('damaged run-length data is an error, not an endless loop', () => {
  // Every byte a varint continuation: the run header never ends within the page.
  expect(() => readHybrid(Uint8Array.of(0xff, 0xff, 0xff), 1, new Uint8Array(4))).toThrow(/ends inside a run header after 0 of 4/);
  // A complete run of two values where four are due.
  expect(() => readHybrid(Uint8Array.of(2 << 1, 1), 1, new Uint8Array(4))).toThrow(/ends after 2 of 4/);
});
