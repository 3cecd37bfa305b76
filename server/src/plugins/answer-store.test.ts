import { expect, test } from 'vitest';
import { AnswerStore } from './answer-store.js';

const answer = (bytes: number, fill = 'a') => Buffer.alloc(bytes, fill);

test('an answer is found when asked again, and kept once asked again while answers sent once turn over', () => {
  const store = new AnswerStore({ maxBytes: 10_000, onceBytes: 1_000, ttlMs: 60_000 });
  store.set('polled', answer(400, 'p'));
  expect(store.get('polled')?.toString()).toBe('p'.repeat(400));
  // Twenty answers nobody asks again: more than the first part holds.
  for (let index = 0; index < 20; index += 1) store.set(`once-${index}`, answer(400));
  expect(store.get('polled')?.toString()).toBe('p'.repeat(400));
  expect(store.get('once-0')).toBeUndefined();
  expect(store.get('once-19')).toBeDefined();
});

test('answers sent once take no more than their part, whatever the store holds', () => {
  const store = new AnswerStore({ maxBytes: 100_000, onceBytes: 1_000, ttlMs: 60_000 });
  for (let index = 0; index < 10; index += 1) store.set(`once-${index}`, answer(400));
  const found = Array.from({ length: 10 }, (_, index) => store.get(`once-${index}`)).filter(Boolean);
  expect(found).toHaveLength(2);
});

test('an answer larger than the first part is kept in the second at once, so it can still be asked again', () => {
  const store = new AnswerStore({ maxBytes: 10_000, onceBytes: 1_000, ttlMs: 60_000 });
  store.set('large', answer(5_000, 'l'));
  expect(store.get('large')?.length).toBe(5_000);
});
