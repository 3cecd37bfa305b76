import { collectOffsetPages } from '@predgate/core';
import type { StatusFilter } from '@predgate/core';
import { defaultLimit } from '../venue.js';

const pageSize = 100;
/** A listing read at most this far (10,000 items): the catalog's sweeps stay bounded. */
const maxPages = 100;

export function statusQuery(status: StatusFilter): Record<string, boolean> {
  // `active=true` alone also returns stale backfilled items: open means neither closed nor archived.
  if (status === 'active') return { closed: false, archived: false };
  if (status === 'all') return {};
  return { closed: true };
}

/**
 * Offset pages of 100 until `limit` fills or a page comes short; an item the
 * payload check left out still counts toward its page (see collectOffsetPages).
 */
export function pages<T>(read: (limit: number, offset: number) => Promise<T[]>, params: { limit?: number; offset?: number }): Promise<T[]> {
  return collectOffsetPages((offset, size) => read(size, offset), { offset: params.offset, limit: params.limit ?? defaultLimit, pageSize, maxPages });
}
