import { expect, test } from 'vitest';
import { oncePerTurn } from './per-turn.js';

const turn = () => new Promise<void>((resolve) => queueMicrotask(resolve));

test('calls in one turn make one run after it; a call in a later turn makes another', async () => {
  let runs = 0;
  const schedule = oncePerTurn(() => (runs += 1));
  schedule();
  schedule();
  schedule();
  expect(runs).toBe(0);
  await turn();
  expect(runs).toBe(1);
  schedule();
  await turn();
  expect(runs).toBe(2);
});

test('a call made by the run itself schedules the next run', async () => {
  const seen: number[] = [];
  const schedule = oncePerTurn(() => {
    seen.push(seen.length);
    if (seen.length < 3) schedule();
  });
  schedule();
  await turn();
  await turn();
  await turn();
  expect(seen).toEqual([0, 1, 2]);
});
