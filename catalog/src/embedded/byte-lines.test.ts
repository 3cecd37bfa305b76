import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { byteLines } from './byte-lines.js';

async function readLines(text: string, chunkBytes: number): Promise<string[]> {
  const file = join(mkdtempSync(join(tmpdir(), 'predgate-lines-')), 'lines');
  writeFileSync(file, text);
  const lines: string[] = [];
  for await (const line of byteLines(file, chunkBytes)) lines.push(line.toString('utf8'));
  return lines;
}

test('lines split across reads, and lines longer than the read buffer, come back whole', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.string({ unit: 'grapheme', maxLength: 40 }).map((line) => line.replaceAll('\n', ' ')),
        { maxLength: 20 },
      ),
      fc.integer({ min: 1, max: 64 }),
      async (lines, chunkBytes) => {
        const text = lines.map((line) => `${line}\n`).join('');
        expect(await readLines(text, chunkBytes)).toEqual(lines);
      },
    ),
    { numRuns: 60 },
  );
});

test('a last line without its newline is still a line', async () => {
  expect(await readLines('first\nsecond', 4)).toEqual(['first', 'second']);
  expect(await readLines('', 4)).toEqual([]);
});
