import { appendFileSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Journal } from './journal.js';

const keepAll = <T>(records: T[]) => records;
const path = () => join(mkdtempSync(join(tmpdir(), 'predgate-journal-')), 'journal.ndjson');

describe('Journal', () => {
  test('records appended at once are all on disk when their appends resolve, readable by the owner only', async () => {
    const file = path();
    const { journal } = await Journal.open<{ n: number }>(file, keepAll);
    await Promise.all(Array.from({ length: 100 }, (_, n) => journal.append({ n })));
    expect(
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { n: number }).n),
    ).toEqual(Array.from({ length: 100 }, (_, n) => n));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await journal.close();
    await expect(journal.append({ n: 100 })).rejects.toThrow(/closed/);
  });

  test('a torn last line (a write cut by kill -9) is left out when the journal is read back', async () => {
    const file = path();
    const first = await Journal.open<{ n: number }>(file, keepAll);
    await first.journal.append({ n: 1 });
    await first.journal.close();
    appendFileSync(file, '{"n":2');
    const { journal, records } = await Journal.open<{ n: number }>(file, keepAll);
    expect(records).toEqual([{ n: 1 }]);
    await journal.append({ n: 3 });
    await journal.close();
    expect((await Journal.open<{ n: number }>(file, keepAll)).records).toEqual([{ n: 1 }, { n: 3 }]);
  });

  test('a rewrite writes the snapshot, taken once earlier appends are on disk, and keeps every append made after it', async () => {
    const file = path();
    const state: number[] = [];
    const { journal } = await Journal.open<{ n: number }>(file, keepAll);
    const append = (n: number) => {
      state.push(n);
      return journal.append({ n });
    };
    await Promise.all([1, 2, 3].map(append));
    expect(journal.appended).toBe(3);
    let late: Promise<void> | undefined;
    // The snapshot keeps even numbers only, so what it left out and what came after it can be told apart.
    const snapshot = () => {
      const taken = state.filter((n) => n % 2 === 0).map((n) => ({ n }));
      late = append(7);
      return taken;
    };
    await Promise.all([append(4), journal.rewrite(snapshot), append(5), append(6)]);
    await late;
    expect(journal.appended).toBe(1);
    await journal.close();
    const { records } = await Journal.open<{ n: number }>(file, keepAll);
    expect(records.map((record) => record.n)).toEqual([2, 4, 6, 7]);
  });
});
