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

test('input already by volume, ties in any order (a snapshot in venue order read for the Router), gives the full order too', () => {
  const order = (a: { volume24h: number; id: string }, b: { volume24h: number; id: string }) =>
    b.volume24h - a.volume24h || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  fc.assert(
    fc.property(fc.array(fc.record({ volume24h: fc.constantFrom(0, 1, 2, 3), id: fc.string({ maxLength: 3 }) }), { maxLength: 80 }), (items) => {
      const byVolumeOnly = [...items].sort((a, b) => b.volume24h - a.volume24h);
      expect(byVolume(byVolumeOnly, order)).toEqual([...items].sort(order));
    }),
    { numRuns: 300 },
  );
});
