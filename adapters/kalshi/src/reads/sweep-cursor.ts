import { PredgateError } from '@predgate/core';
import type { StatusFilter } from '@predgate/core';

/** The `status` values `GET /events` takes, one per request. */
export type VenueStatus = 'open' | 'closed' | 'settled';

/**
 * The venue statuses a unified status filter reads, in order: `active` is
 * `open`; `closed` (and its synonym `inactive`) is `closed` then `settled`;
 * `all` is all three.
 */
export function passesOf(status: StatusFilter | undefined): VenueStatus[] {
  switch (status) {
    case 'all':
      return ['open', 'closed', 'settled'];
    case 'closed':
    case 'inactive':
      return ['closed', 'settled'];
    default:
      return ['open'];
  }
}

/** Where a sweep over the passes stands: the pass, the venue cursor in it, and events of that page already read. */
export interface SweepPosition {
  pass: number;
  cursor?: string;
  skip: number;
}

const marker = '~';

/**
 * The unified cursor of a position. At a page boundary of the sweep's first
 * pass it is Kalshi's own cursor, unchanged; elsewhere (a later pass, or part
 * way through a page) it names the pass and the offset in the page too.
 * Kalshi's cursors are base64url text, which never starts with `~`.
 */
export function encodeSweepCursor(position: SweepPosition, passes: readonly VenueStatus[]): string {
  if (position.pass === 0 && position.skip === 0 && position.cursor !== undefined) return position.cursor;
  const state = { status: passes[position.pass], cursor: position.cursor, skip: position.skip };
  return `${marker}${Buffer.from(JSON.stringify(state)).toString('base64url')}`;
}

export function decodeSweepCursor(cursor: string, passes: readonly VenueStatus[], venue: string): SweepPosition {
  if (!cursor.startsWith(marker)) return { pass: 0, cursor, skip: 0 };
  let state: { status?: unknown; cursor?: unknown; skip?: unknown } | undefined;
  try {
    state = JSON.parse(Buffer.from(cursor.slice(marker.length), 'base64url').toString('utf8')) as typeof state;
  } catch {
    // reported below
  }
  const pass = passes.indexOf(state?.status as VenueStatus);
  const skip = state?.skip ?? 0;
  const venueCursor = state?.cursor;
  if (pass === -1 || !Number.isInteger(skip) || (skip as number) < 0 || (venueCursor !== undefined && typeof venueCursor !== 'string')) {
    throw new PredgateError('VALIDATION_ERROR', `"cursor" is not a cursor of this ${passes.length > 1 ? 'status sweep' : 'status'}`, {
      exchange: venue,
      detail: { argument: 'params', path: 'params.cursor', rule: 'cursor.invalid' },
    });
  }
  return { pass, skip: skip as number, ...(venueCursor === undefined ? {} : { cursor: venueCursor as string }) };
}
