import fc from 'fast-check';
import { expect, test } from 'vitest';
import { NumberBlocks } from './number-blocks.js';

test('each copy keeps its own numbers, within a block, across blocks, and longer than a block', () => {
  fc.assert(
    fc.property(fc.array(fc.array(fc.integer({ min: -1, max: 2 ** 31 - 1 }), { maxLength: 12 }), { maxLength: 20 }), (lists) => {
      const blocks = new NumberBlocks((length) => new Int32Array(length), 8);
      const copies = lists.map((list) => blocks.copy(list));
      expect(copies.map((copy) => [...copy])).toEqual(lists);
    }),
  );
});
