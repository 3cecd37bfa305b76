import { expect, test } from 'vitest';
import { LazyIndex } from './lazy-index.js';

const byInitial = (words: string[]) =>
  new LazyIndex<string, string, string[]>(words, (map, word) => {
    const list = map.get(word[0]!);
    if (list) list.push(word);
    else map.set(word[0]!, [word]);
  });

test('a lookup finds every item, whether the index was warmed, partly warmed or not at all', async () => {
  const words = Array.from({ length: 25 }, (_, index) => `${'abc'[index % 3]}${index}`);
  const expected = words.filter((word) => word.startsWith('b'));
  expect(byInitial(words).get('b')).toEqual(expected);
  const warmed = byInitial(words);
  await warmed.warm(4);
  expect(warmed.get('b')).toEqual(expected);
  const partly = byInitial(words);
  const warming = partly.warm(4);
  expect(partly.get('b')).toEqual(expected);
  await warming;
  expect(partly.get('b')).toEqual(expected);
  expect(partly.get('z')).toBeUndefined();
});
