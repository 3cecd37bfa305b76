import fc from 'fast-check';
import { expect, test } from 'vitest';
import { ShortTexts } from './short-texts.js';

test('candidates of a text under three characters hold every text containing it, and none where no text does', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.string({ unit: fc.constantFrom('a', 'i', 'u', 'k', '1', ' ', 'é'), maxLength: 12 }), { maxLength: 40 }),
      fc.string({ unit: fc.constantFrom('a', 'i', 'u', 'k', '1', ' ', 'é', 'z'), maxLength: 2 }),
      fc.integer({ min: 1, max: 20 }),
      async (texts, needle, unitsPerTurn) => {
        const short = await ShortTexts.build(texts, unitsPerTurn);
        const candidates = [...short.candidates(needle)!];
        const matches = texts.flatMap((text, position) => (text.includes(needle) ? [position] : []));
        expect(candidates).toEqual([...candidates].sort((a, b) => a - b));
        for (const position of matches) expect(candidates).toContain(position);
        if (matches.length === 0) expect(candidates).toEqual([]);
      },
    ),
  );
});

test('a pair is two adjacent characters of one text, not the end of one and the start of the next; longer needles are not its own', async () => {
  const short = await ShortTexts.build(['ai race', 'uk\nf1 cup']);
  expect([...short.candidates('ai')!]).toEqual([0, 1]);
  expect([...short.candidates('f1')!]).toEqual([0, 1]);
  expect([...short.candidates('\nf')!]).toEqual([0, 1]);
  expect([...short.candidates('eu')!]).toEqual([]);
  expect([...short.candidates('x')!]).toEqual([]);
  expect(short.candidates('cup')).toBeUndefined();
});
