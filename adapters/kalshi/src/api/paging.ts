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
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages && items.length < wanted; page += 1) {
    const answer = await fetchPage(cursor, wanted - items.length);
    const list = answer[listKey];
    const pageItems = Array.isArray(list) ? (list as T[]) : [];
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
