import fc from 'fast-check';
import { expect, test } from 'vitest';
import { TrigramIndex } from './trigram-index.js';

test('candidates always include every text containing the needle, in position order', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'o', 't', ' '), maxLength: 30 }), { maxLength: 60 }),
      fc.string({ unit: fc.constantFrom('a', 'b', 'o', 't'), minLength: 3, maxLength: 6 }),
      async (texts, needle) => {
        const index = await TrigramIndex.build(texts);
        const candidates = [...index.candidates(needle)!];
        const matches = texts.flatMap((text, position) => (text.includes(needle) ? [position] : []));
        expect(candidates).toEqual([...candidates].sort((a, b) => a - b));
        for (const position of matches) expect(candidates).toContain(position);
      },
    ),
  );
});

test('a needle with a window no text has has no candidates; a short one cannot be narrowed', async () => {
  const index = await TrigramIndex.build(['river town otters', 'lottery winners', 'harbor gulls']);
  // A superset: 'lottery' shares windows with 'otters'; 'harbor gulls' shares none.
  expect([...index.candidates('otters')!]).toContain(0);
  expect([...index.candidates('otters')!]).not.toContain(2);
  expect([...index.candidates('zzz')!]).toEqual([]);
  expect(index.candidates('ot')).toBeUndefined();
});

test('candidates hold every window of the needle, not only its rarest one', async () => {
  const index = await TrigramIndex.build(['xabc', 'bcdx', 'abcd', 'abc bcd']);
  // Each window alone is in three texts; only two hold both.
  expect([...index.candidates('abcd')!]).toEqual([2, 3]);
});

test('past the first 1,023 distinct characters, windows share a code and candidates still hold every match', async () => {
  const rare = Array.from({ length: 1_200 }, (_, index) => String.fromCharCode(0x4e00 + index));
  const texts = rare.map((char, index) => `${char}${rare[(index + 1) % rare.length]}x title ${index}`);
  const index = await TrigramIndex.build(texts);
  for (const position of [0, 500, 1_050, 1_199]) {
    const needle = texts[position]!.slice(0, 4);
    expect([...index.candidates(needle)!]).toContain(position);
  }
  expect([...index.candidates(`${rare[1_100]}${rare[3]}x`)!]).not.toContain(3);
});

test('the build lets the event loop turn while it makes the final lists, not only between texts', async () => {
  // One text of 998 distinct windows: adding it is one slice, so the turns come from packing the lists.
  const text = Array.from({ length: 1_000 }, (_, index) => String.fromCharCode(0x4e00 + index)).join('');
  let turns = 0;
  let building = true;
  const count = () => {
    if (!building) return;
    turns += 1;
    setImmediate(count);
  };
  setImmediate(count);
  const index = await TrigramIndex.build([text], 100);
  building = false;
  expect(turns).toBeGreaterThanOrEqual(5);
  expect([...index.candidates(text.slice(500, 504))!]).toEqual([0]);
});
