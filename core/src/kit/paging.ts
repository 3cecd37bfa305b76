import { PredgateError } from '../errors.js';
import { collectingDrift } from './drift.js';

/**
 * Collectors for the ways venues page their lists. Each stops at what the
 * caller asked for, at the venue's last page, or at `maxPages`, whichever
 * comes first, so no call can walk a venue's whole history by accident.
 */

export interface Page<T, C> {
  items: T[];
  /** What asks for the next page; absent on the last one. */
  next?: C;
}

export interface CollectOptions {
  /** Items wanted; every page the venue has (up to `maxPages`) when absent. */
  limit?: number;
  /** Upper bound on requests for one call. */
  maxPages: number;
}

/** Walks pages from `first` while each names the next, collecting up to `limit` items. */
export async function collectPages<T, C>(first: C, fetchPage: (position: C) => Promise<Page<T, C>>, options: CollectOptions): Promise<T[]> {
  const items: T[] = [];
  let position: C | undefined = first;
  for (let pages = 0; position !== undefined && pages < options.maxPages; pages += 1) {
    const page: Page<T, C> = await fetchPage(position);
    items.push(...page.items);
    if (options.limit !== undefined && items.length >= options.limit) return items.slice(0, options.limit);
    // A venue that hands back the cursor it was given would loop forever.
    if (page.next === position || page.items.length === 0) break;
    position = page.next;
  }
  return options.limit === undefined ? items : items.slice(0, options.limit);
}

export interface OffsetPaging {
  /** First item wanted. */
  offset?: number;
  limit?: number;
  /** Most items the venue returns per request. */
  pageSize: number;
  maxPages: number;
}

/**
 * Offset paging: a short page is the last. Items the venue sent but the
 * payload check left out (see `venueValue.items`) count toward the page, so
 * one unreadable item neither ends the listing early nor shifts the next offset.
 */
export function collectOffsetPages<T>(fetchPage: (offset: number, size: number) => Promise<T[]>, paging: OffsetPaging): Promise<T[]> {
  const size = Math.min(paging.pageSize, paging.limit ?? paging.pageSize);
  return collectPages<T, number>(
    paging.offset ?? 0,
    async (offset) => {
      const { value: items, reports } = await collectingDrift(() => fetchPage(offset, size));
      const sent = items.length + reports.length;
      return { items, next: sent < size ? undefined : offset + sent };
    },
    paging,
  );
}

/** Page-number paging (`page=1,2,...`): a short page is the last. */
export function collectNumberedPages<T>(
  fetchPage: (page: number, size: number) => Promise<T[]>,
  paging: Omit<OffsetPaging, 'offset'> & { firstPage?: number },
): Promise<T[]> {
  const size = paging.pageSize;
  return collectPages<T, number>(
    paging.firstPage ?? 1,
    async (page) => {
      const { value: items, reports } = await collectingDrift(() => fetchPage(page, size));
      return { items, next: items.length + reports.length < size ? undefined : page + 1 };
    },
    paging,
  );
}

/**
 * Opaque-cursor and keyset paging (`cursor`, `after_cursor` from `next_cursor`):
 * `fetchPage` receives undefined for the first page and returns the venue's next cursor.
 */
export function collectCursorPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; next?: string | null }>,
  options: CollectOptions,
): Promise<T[]> {
  return collectPages<T, string | typeof start>(
    start,
    async (position) => {
      const page = await fetchPage(position === start ? undefined : position);
      return { items: page.items, next: page.next ? page.next : undefined };
    },
    options,
  );
}

const start = Symbol('first page');

/** Refuses an offset past what a venue's paging can reach in `maxPages`. */
export function assertReachable(offset: number, pageSize: number, maxPages: number): void {
  if (offset > pageSize * maxPages) {
    throw new PredgateError('VALIDATION_ERROR', `"params.offset" must be at most ${pageSize * maxPages} on this venue`, {
      detail: { argument: 'params', path: 'params.offset', max: pageSize * maxPages },
    });
  }
}
