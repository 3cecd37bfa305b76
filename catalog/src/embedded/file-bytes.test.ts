import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, vi } from 'vitest';
import { FileBytes } from './file-bytes.js';

function fileOf(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'predgate-bytes-')), 'events');
  writeFileSync(path, text);
  return path;
}

test('a range reads back the bytes at its place in the file', () => {
  const file = new FileBytes(fileOf('{"a":1}\n{"b":"é"}\n'));
  expect(file.range(8, 10).read().toString('utf8')).toBe('{"b":"é"}');
  file.close();
});

test('a range past the end of the file is an error naming the file, not short bytes', () => {
  const path = fileOf('{"a":1}');
  const file = new FileBytes(path);
  expect(() => file.range(4, 10).read()).toThrow(`catalog file ${path} ends before byte 14`);
});

test('a retired file answers until its time is up, then says it was closed', () => {
  vi.useFakeTimers();
  try {
    const path = fileOf('{"a":1}');
    const file = new FileBytes(path);
    file.retire(60_000);
    vi.advanceTimersByTime(59_000);
    expect(file.read(0, 7).toString('utf8')).toBe('{"a":1}');
    vi.advanceTimersByTime(1_000);
    expect(() => file.read(0, 7)).toThrow(`catalog file ${path} was replaced and closed`);
  } finally {
    vi.useRealTimers();
  }
});
