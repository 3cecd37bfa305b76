import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { replaceFile, writeFileDurably, writeFileDurablySync } from './durable-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'predgate-durable-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('durable files', () => {
  test('a file is replaced whole, in a directory made on the way, with nothing left beside it', async () => {
    const path = join(dir, 'nested', 'state.json');
    await writeFileDurably(path, 'first');
    await writeFileDurably(path, 'second');
    expect(readFileSync(path, 'utf8')).toBe('second');
    expect(readdirSync(join(dir, 'nested'))).toEqual(['state.json']);
  });

  test('a write that fails leaves the old contents and removes its temporary file', async () => {
    const path = join(dir, 'state.json');
    writeFileSync(path, 'old');
    const failure = replaceFile(path, async (temporary) => {
      await writeFile(temporary, 'half of the new');
      throw new Error('disk full');
    });
    await expect(failure).rejects.toThrow('disk full');
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  test('replaceFile answers what the writer answers', async () => {
    const path = join(dir, 'rows');
    const written = await replaceFile(path, async (temporary) => {
      await writeFile(temporary, 'abc');
      return 3;
    });
    expect(written).toBe(3);
    expect(readFileSync(path, 'utf8')).toBe('abc');
  });

  test('concurrent replacements of one file each write their own temporary file: one of them wins whole', async () => {
    const path = join(dir, 'state.json');
    const contents = Array.from({ length: 8 }, (_, index) => String(index).repeat(10_000));
    await Promise.all(contents.map((text) => writeFileDurably(path, text)));
    expect(contents).toContain(readFileSync(path, 'utf8'));
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  test('a secret file is created with the mode asked for', async () => {
    await writeFileDurably(join(dir, 'async'), 'k', { mode: 0o600 });
    writeFileDurablySync(join(dir, 'sync'), 'k', { mode: 0o600 });
    expect(statSync(join(dir, 'async')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'sync')).mode & 0o777).toBe(0o600);
  });

  test('the blocking variant replaces a file whole and cleans up after a failure', () => {
    const path = join(dir, 'keys.json');
    writeFileDurablySync(path, 'one');
    writeFileDurablySync(path, Buffer.from('two'));
    expect(readFileSync(path, 'utf8')).toBe('two');
    // A target that is a directory cannot be renamed over: the write fails, and no temporary file stays behind.
    mkdirSync(join(dir, 'taken'));
    expect(() => writeFileDurablySync(join(dir, 'taken'), 'x')).toThrow();
    expect(readdirSync(dir).sort()).toEqual(['keys.json', 'taken']);
  });
});
