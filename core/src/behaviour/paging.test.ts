import { describe, expect, test } from 'vitest';
import { decodeCursor, encodeCursor, offsetWindow } from './paging.js';

describe('offset paging', () => {
  test('limit and offset select a window, with a cursor to the next one', () => {
    const first = offsetWindow(25, { limit: 10 }, 100);
    expect(first).toMatchObject({ start: 0, end: 10 });
    const second = offsetWindow(25, { limit: 10, cursor: first.nextCursor }, 100);
    expect(second).toMatchObject({ start: 10, end: 20 });
    const last = offsetWindow(25, { limit: 10, cursor: second.nextCursor }, 100);
    expect(last).toEqual({ start: 20, end: 25, nextCursor: undefined });
  });

  test('the default page size applies without a limit', () => {
    expect(offsetWindow(500, { offset: 450 }, 100)).toEqual({ start: 450, end: 500, nextCursor: undefined });
  });

  test('cursors are opaque and round-trip', () => {
    expect(decodeCursor(encodeCursor({ offset: 42 }))).toEqual({ offset: 42 });
  });

  test.each(['garbage', encodeCursor({ offset: -1 } as never), Buffer.from('{"offset":"5"}').toString('base64url')])(
    'a cursor we did not issue (%s) is a validation error',
    (cursor) => {
      expect(() => decodeCursor(cursor, 'mock')).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR', exchange: 'mock' }));
    },
  );
});
