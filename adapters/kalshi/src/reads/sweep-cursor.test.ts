import { describe, expect, test } from 'vitest';
import { decodeSweepCursor, encodeSweepCursor, passesOf } from './sweep-cursor.js';

describe('status passes', () => {
  test.each([
    [undefined, ['open']],
    ['active', ['open']],
    ['closed', ['closed', 'settled']],
    ['inactive', ['closed', 'settled']],
    ['all', ['open', 'closed', 'settled']],
  ] as const)('%s reads %j', (status, passes) => {
    expect(passesOf(status)).toEqual(passes);
  });
});

describe('sweep cursors', () => {
  const all = passesOf('all');

  test("at a page boundary of the first pass the cursor is Kalshi's own", () => {
    expect(encodeSweepCursor({ pass: 0, cursor: 'CgYI8Mzn4AsS', skip: 0 }, all)).toBe('CgYI8Mzn4AsS');
    expect(decodeSweepCursor('CgYI8Mzn4AsS', all, 'kalshi')).toEqual({ pass: 0, cursor: 'CgYI8Mzn4AsS', skip: 0 });
  });

  test('a later pass or a place inside a page round-trips', () => {
    for (const position of [
      { pass: 1, skip: 0 },
      { pass: 2, cursor: 'EhIKEAch', skip: 0 },
      { pass: 0, skip: 3 },
      { pass: 0, cursor: 'CgYI', skip: 17 },
    ]) {
      const cursor = encodeSweepCursor(position, all);
      expect(cursor.startsWith('~')).toBe(true);
      expect(decodeSweepCursor(cursor, all, 'kalshi')).toEqual(position);
    }
  });

  test('a pass is named by status, so a closed-sweep cursor also resumes an all-sweep', () => {
    const cursor = encodeSweepCursor({ pass: 1, skip: 0 }, passesOf('closed'));
    expect(decodeSweepCursor(cursor, all, 'kalshi')).toEqual({ pass: 2, skip: 0 });
  });

  test.each(['~', '~bm90IGpzb24', `~${Buffer.from('{"status":"open","skip":-1}').toString('base64url')}`])(
    'a cursor this adapter did not issue is a VALIDATION_ERROR: %s',
    (cursor) => {
      expect(() => decodeSweepCursor(cursor, all, 'kalshi')).toThrow(
        expect.objectContaining({ code: 'VALIDATION_ERROR', detail: expect.objectContaining({ path: 'params.cursor' }) }),
      );
    },
  );

  test('a cursor of a pass the sweep does not read is refused', () => {
    const settled = encodeSweepCursor({ pass: 2, skip: 0 }, all);
    expect(() => decodeSweepCursor(settled, passesOf('active'), 'kalshi')).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });
});
