import fc from 'fast-check';
import { expect, test } from 'vitest';
import { KeyTable } from './key-table.js';

type Item = { keys: string[] };

test('every item holding a key, in item order, whether built at once or warmed in slices', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ keys: fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }) }), { maxLength: 60 }),
      fc.string({ maxLength: 4 }),
      async (items: Item[], key) => {
        const expected = items.filter((item) => item.keys.includes(key));
        expect(new KeyTable(items, (item) => item.keys).all(key)).toEqual(expected);
        const warmed = new KeyTable(items, (item) => item.keys);
        await warmed.warm(7);
        expect(warmed.all(key)).toEqual(expected);
        expect(warmed.last(key)).toBe(expected.at(-1));
      },
    ),
    { numRuns: 300 },
  );
});

test('keys whose hashes collide are told apart by the key itself', () => {
  // These two share an FNV-1a hash (found by search): both sit under one hash in the table.
  const [first, second] = ['outcome-555778', 'outcome-1091282'];
  const items = [{ keys: [first] }, { keys: ['other'] }, { keys: [second] }, { keys: [first, second] }];
  const table = new KeyTable(items, (item) => item.keys);
  expect(table.all(first)).toEqual([items[0], items[3]]);
  expect(table.all(second)).toEqual([items[2], items[3]]);
  expect(table.last(second)).toBe(items[3]);
  expect(table.all('outcome-1')).toEqual([]);
});

test('keys packed into one text with a separator are found as the same keys listed apart', async () => {
  const key = fc.string({ maxLength: 4 }).filter((text) => !text.includes('|'));
  await fc.assert(
    fc.asyncProperty(fc.array(fc.record({ keys: fc.array(key, { minLength: 1, maxLength: 3 }) }), { maxLength: 60 }), key, async (items: Item[], sought) => {
      const expected = items.filter((item) => item.keys.includes(sought));
      const packed = new KeyTable(items, (item) => item.keys.join('|'), '|');
      expect(packed.all(sought)).toEqual(expected);
      await packed.warm(7);
      expect(packed.last(sought)).toBe(expected.at(-1));
      // A packed text is its keys, never a key of its own.
      const joined = items.find((item) => item.keys.length > 1)?.keys.join('|');
      if (joined !== undefined) expect(packed.all(joined)).toEqual([]);
    }),
    { numRuns: 300, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
  );
});
