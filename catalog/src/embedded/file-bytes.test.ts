import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, vi } from 'vitest';
import { FileBytes, SequentialCopier, borrowAdjacentBytes, borrowEventSlice, inFileOrder, readPage } from './file-bytes.js';

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

test("a slice of an event's bytes reads only that slice, in a file and in memory; a slice past the event is an error", () => {
  const file = new FileBytes(fileOf('xx{"m":[{"a":1},{"b":2}]}yy'));
  const event = file.range(2, 23);
  expect(borrowEventSlice(event, 14, 21).toString('utf8')).toBe('{"b":2}');
  expect(borrowEventSlice(event, 0, 23).toString('utf8')).toBe('{"m":[{"a":1},{"b":2}]}');
  expect(borrowEventSlice(Buffer.from('{"m":[{"a":1}]}'), 6, 13).toString('utf8')).toBe('{"a":1}');
  expect(() => borrowEventSlice(event, 15, 25)).toThrow('bytes 15-25 asked of a stored event of 23');
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

test('the copier reads ranges of several files, in order and out of it, and ranges longer than its block, byte for byte', () => {
  const first = new FileBytes(fileOf('{"a":1}{"b":"é"}{"c":[1,2,3]}'));
  const second = new FileBytes(fileOf('x'.repeat(40) + '{"long":"' + 'y'.repeat(30) + '"}'));
  const ranges = [first.range(0, 7), first.range(7, 10), second.range(40, 41), first.range(17, 13), first.range(0, 7), Buffer.from('{"m":0}')];
  const target = Buffer.alloc(ranges.reduce((sum, range) => sum + range.length, 0));
  const copier = new SequentialCopier(16);
  let at = 0;
  for (const range of ranges) {
    copier.copy(range, target, at);
    at += range.length;
  }
  expect(target.toString('utf8')).toBe('{"a":1}{"b":"é"}{"long":"' + 'y'.repeat(30) + '"}{"c":[1,2,3]}{"a":1}{"m":0}');
  expect(() => copier.copy(first.range(20, 20), target, 0)).toThrow(`catalog file ${first.path} ends before byte 40`);
});

test('events are put in the order of their bytes, file by file, those in memory first', () => {
  const [a, b] = [new FileBytes(fileOf('0123456789')), new FileBytes(fileOf('0123456789'))];
  const events = [a.range(5, 1), b.range(2, 1), Buffer.from('m'), a.range(1, 1), b.range(0, 1)].map((bytes, index) => ({ bytes, index }));
  expect(inFileOrder(events).map((event) => event.index)).toEqual([2, 3, 0, 4, 1]);
});

test('an event and its Router shell a few bytes apart are read in one read, byte for byte; ranges apart or in memory each alone', () => {
  const line = '{"event":{"id":"é1"},"router":{"shell":true}}';
  const file = new FileBytes(fileOf(`${'x'.repeat(200)}${line}`));
  const event = file.range(200 + line.indexOf('{"id"'), Buffer.byteLength('{"id":"é1"}'));
  const shell = file.range(200 + Buffer.byteLength(line) - 1 - '{"shell":true}'.length, '{"shell":true}'.length);
  const reads = vi.spyOn(file, 'readInto');
  try {
    const [eventBytes, shellBytes] = borrowAdjacentBytes(event, shell);
    expect([eventBytes.toString('utf8'), shellBytes.toString('utf8')]).toEqual(['{"id":"é1"}', '{"shell":true}']);
    expect(reads).toHaveBeenCalledTimes(1);
    // Out of order, too far apart, or one of them in memory: each read alone, still right.
    const far = file.range(0, 10);
    for (const [first, second, expected] of [
      [shell, event, ['{"shell":true}', '{"id":"é1"}']],
      [far, shell, ['x'.repeat(10), '{"shell":true}']],
      [event, Buffer.from('{"m":0}'), ['{"id":"é1"}', '{"m":0}']],
    ] as const) {
      expect(borrowAdjacentBytes(first, second).map((bytes) => bytes.toString('utf8'))).toEqual(expected);
    }
  } finally {
    reads.mockRestore();
    file.close();
  }
});

test('a page of neighbouring events is read at once: its ranges come from that read, byte for byte; others, and sparse pages, from the file', () => {
  // Events of 100 bytes side by side; the file is then changed under the reader (which a store's files never are),
  // so a range read after shows where it came from: a page's read holds the bytes as they were.
  const events = Array.from({ length: 20 }, (_, index) => `{"n":${String(index).padStart(2, '0')},"t":"${'é'.repeat(40)}${'x'.repeat(5)}"}`);
  expect(events.every((event) => Buffer.byteLength(event) === 100)).toBe(true);
  const path = fileOf(events.join(''));
  const file = new FileBytes(path);
  const range = (index: number) => file.range(index * 100, 100);
  const read = (index: number) => range(index).read().toString('utf8');
  const writtenWith = (letter: string) => events.map((event) => event.replace(/x/g, letter));
  const change = (letter: string) => writeFileSync(path, writtenWith(letter).join(''));
  try {
    readPage([range(3), range(5), undefined, Buffer.from('{}'), range(4), range(7)]);
    change('y');
    for (const index of [3, 4, 5, 6, 7]) expect(read(index)).toBe(events[index]);
    // Partly outside the page's read, or outside it: from the file as it is now.
    expect(file.range(750, 100).read()).toEqual(Buffer.from(writtenWith('y').join('')).subarray(750, 850));
    expect(read(8)).toBe(writtenWith('y')[8]);
    // Ranges that fill too little of their span, or a page of fewer than three ranges, are each read alone.
    readPage([range(0), range(19), range(10)]);
    change('z');
    expect([read(0), read(10)]).toEqual([writtenWith('z')[0], writtenWith('z')[10]]);
    readPage([range(1), range(2)]);
    change('w');
    expect(read(1)).toBe(writtenWith('w')[1]);
  } finally {
    file.close();
  }
});
