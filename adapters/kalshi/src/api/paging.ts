import { checkPayload } from '@predgate/core';
import type { PayloadSource } from '@predgate/core';
import Joi from 'joi';
import type { RawPage } from './types.js';

/**
 * Reads a cursor-paged list until `wanted` items are in hand, the venue has
 * no further page, or `maxPages` pages were read. `fetchPage` receives the
 * cursor and how many items are still wanted (for the page's `limit`).
 */
export async function collectPages<T>(
  listKey: string,
  fetchPage: (cursor: string | undefined, remaining: number) => Promise<RawPage>,
  wanted: number,
  maxPages: number,
  source: PayloadSource,
): Promise<T[]> {
  // Kalshi sends `null` for an empty list; anything else that is not a list is not an empty page.
  const shape = Joi.object({ [listKey]: Joi.array().items(Joi.object()).allow(null), cursor: Joi.string().allow('', null) }).required();
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages && items.length < wanted; page += 1) {
    const answer = checkPayload<RawPage>(shape, await fetchPage(cursor, wanted - items.length), source);
    const pageItems = (answer[listKey] ?? []) as T[];
    items.push(...pageItems);
    cursor = nextCursorOf(answer);
    if (cursor === undefined || pageItems.length === 0) break;
  }
  return items.slice(0, wanted);
}

/** The venue's cursor of the next page; undefined on the last page (`""`, null or absent). */
export function nextCursorOf(page: RawPage): string | undefined {
  return typeof page.cursor === 'string' && page.cursor !== '' ? page.cursor : undefined;
}
