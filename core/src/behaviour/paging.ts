import { PredgateError } from '../errors.js';

/**
 * Opaque cursors for venues (or adapters) that page by offset. The cursor is
 * base64url JSON so it survives query strings unescaped; clients must treat it
 * as opaque.
 */
export function encodeCursor(state: { offset: number }): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

export function decodeCursor(cursor: string, venue?: string): { offset: number } {
  try {
    const state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset?: unknown };
    if (Number.isInteger(state.offset) && (state.offset as number) >= 0) return { offset: state.offset as number };
  } catch {
    // reported below
  }
  throw new PredgateError('VALIDATION_ERROR', `"cursor" is not a cursor this venue issued`, {
    exchange: venue ?? null,
    detail: { argument: 'params', path: 'params.cursor', rule: 'cursor.invalid' },
  });
}

export interface OffsetWindow {
  start: number;
  end: number;
  /** Cursor of the page after this one, when there is one. */
  nextCursor?: string;
}

/** The slice a `limit`/`offset`/`cursor` request selects from `total` items; a cursor wins over an offset. */
export function offsetWindow(total: number, params: { limit?: number; offset?: number; cursor?: string }, defaultLimit: number, venue?: string): OffsetWindow {
  const start = params.cursor !== undefined ? decodeCursor(params.cursor, venue).offset : (params.offset ?? 0);
  const end = Math.min(total, start + (params.limit ?? defaultLimit));
  return { start, end, nextCursor: end < total ? encodeCursor({ offset: end }) : undefined };
}
