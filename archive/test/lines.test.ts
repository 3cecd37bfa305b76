import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { forEachLine, forLinesAt } from '../src/lines.js';

const folder = mkdtempSync(join(tmpdir(), 'predgate-lines-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// Lines long enough that some straddle the reader's 1 MiB chunks, one longer than a chunk, and multi-byte text.
const lines = [...Array.from({ length: 40 }, (_, index) => `${index} ${'é'.repeat(20_000 + index * 1_000)}`), 'x'.repeat(1_500_000), 'last'];
const file = join(folder, 'journal');
writeFileSync(file, `${lines.join('\n')}\n\ntorn tail`);
const offsets = lines.map((_, index) =>
  Buffer.byteLength(
    lines
      .slice(0, index)
      .map((line) => `${line}\n`)
      .join(''),
  ),
);
const completeEnd = Buffer.byteLength(`${lines.join('\n')}\n\n`);

test('each line comes with the byte offset it starts at; the end of the last complete line is returned; a torn tail can be skipped', () => {
  const seen: Array<[string, number]> = [];
  const end = forEachLine(file, (line, offset) => seen.push([line, offset]), { unterminated: 'skip' });
  expect(seen).toEqual(lines.map((line, index) => [line, offsets[index]]));
  expect(end).toBe(completeEnd);
});

test('by default the unterminated last line is visited too, and a range starts at its offset', () => {
  const seen: Array<[string, number]> = [];
  forEachLine(file, (line, offset) => seen.push([line, offset]), { from: offsets[39] });
  expect(seen).toEqual([
    [lines[39], offsets[39]],
    [lines[40], offsets[40]],
    ['last', offsets[41]],
    ['torn tail', completeEnd],
  ]);
});

test('the lines at chosen offsets are read whole, near ones together, long ones past the buffer, none at or past `to`', () => {
  // Every third line, a run of neighbours, the line longer than any buffer, and the last: multi-byte text straddling reads.
  const chosen = [0, 3, 6, 7, 8, 9, 20, 39, 40, 41];
  const seen: string[] = [];
  forLinesAt(file, offsets, 0, 0, completeEnd, (line) => seen.push(line));
  expect(seen).toEqual([]);
  forLinesAt(
    file,
    chosen.map((index) => offsets[index]!),
    0,
    chosen.length,
    completeEnd,
    (line) => seen.push(line),
  );
  expect(seen).toEqual(chosen.map((index) => lines[index]));

  // `to` inside a line: that line ends there; lines starting at or past it are not visited.
  const cut: string[] = [];
  forLinesAt(file, [offsets[7]!, offsets[8]!, offsets[9]!], 0, 3, offsets[8]! + 10, (line) => cut.push(line));
  expect(cut).toEqual([lines[7], Buffer.from(lines[8]!).subarray(0, 10).toString()]);
  // A `to` past the file's end: the last line ends where the file does.
  const tail: string[] = [];
  forLinesAt(file, [offsets[41]!, completeEnd], 0, 2, completeEnd + 1_000_000, (line) => tail.push(line));
  expect(tail).toEqual(['last', 'torn tail']);
});
