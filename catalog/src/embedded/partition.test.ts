import fc from 'fast-check';
import { expect, test } from 'vitest';
import { byVolume } from './partition.js';

test('sorting by volume first gives exactly what the full comparator gives, ties included', () => {
  const order = (a: { volume24h: number; id: string }, b: { volume24h: number; id: string }) =>
    b.volume24h - a.volume24h || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          volume24h: fc.oneof(fc.constantFrom(0, -0, 1, 2.5), fc.double({ noNaN: true, noDefaultInfinity: true })),
          id: fc.string({ maxLength: 3 }),
        }),
        { maxLength: 80 },
      ),
      (items) => {
        expect(byVolume(items, order)).toEqual([...items].sort(order));
      },
    ),
    { numRuns: 300 },
  );
});
