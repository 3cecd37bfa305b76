import type { StoredEntry } from './stored-entry.js';

/** Matches of a query in one partition: how many, and the matches in query order. */
export interface Matches<T> {
  total: number;
  items(): Iterable<T>;
  /** The matches from `start` to `end`, without walking the ones before. */
  slice(start: number, end: number): T[];
}

/** The matches of a list already filtered and ordered. */
export function listed<T>(items: readonly T[]): Matches<T> {
  return { total: items.length, items: () => items, slice: (start, end) => items.slice(start, end) };
}

/** Events in Router order that were open when listed, with their close times sorted for counting. */
export interface OpenList {
  rank: StoredEntry[];
  closingTimes: Float64Array;
  /** Where in `rank` the expired events are, ascending, for the last count of them asked (see `expiredPositions`). */
  expired?: { count: number; positions: Uint32Array };
}

/** `rank` (events the venue has not closed, in Router order) as an open list. */
export function openList(rank: StoredEntry[]): OpenList {
  const times = rank.flatMap((entry) => (entry.closesAt === null ? [] : [entry.closesAt]));
  return { rank, closingTimes: Float64Array.from(times).sort() };
}

/**
 * The events of an open list still open at `expiredBy`, counted without a
 * scan. Expired events are few (the venue soon closes them): a page is found
 * by stepping over their positions, not by walking the events before it.
 */
export function openMatches(list: OpenList, expiredBy: number | undefined): Matches<StoredEntry> {
  const expired = expiredBy === undefined ? 0 : countAtOrBelow(list.closingTimes, expiredBy);
  if (expired === 0) return listed(list.rank);
  const skipped = expiredPositions(list, expired, expiredBy!);
  const live = (entry: StoredEntry) => entry.closesAt === null || entry.closesAt > expiredBy!;
  return {
    total: list.rank.length - expired,
    items: () => list.rank.filter(live),
    slice(start, end) {
      // The live event numbered `start` sits as many places further down the list as there are expired events up to it.
      let position = start;
      let skip = 0;
      while (skip < skipped.length && skipped[skip]! <= position) {
        position += 1;
        skip += 1;
      }
      const page: StoredEntry[] = [];
      for (; position < list.rank.length && page.length < end - start; position += 1) {
        if (skipped[skip] === position) skip += 1;
        else page.push(list.rank[position]!);
      }
      return page;
    },
  };
}

/**
 * The positions in `list.rank` of its `count` events closed by `expiredBy`,
 * ascending. The same count is the same events whatever the time (the
 * earliest close times), so the positions are found by one walk when the
 * count changes, as events expire, not on every request.
 */
function expiredPositions(list: OpenList, count: number, expiredBy: number): Uint32Array {
  if (list.expired?.count === count) return list.expired.positions;
  const positions = new Uint32Array(count);
  let found = 0;
  list.rank.forEach((entry, position) => {
    if (entry.closesAt !== null && entry.closesAt <= expiredBy) positions[found++] = position;
  });
  list.expired = { count, positions };
  return positions;
}

/** How many of the sorted values are at or below the limit (binary search). */
function countAtOrBelow(sorted: Float64Array, limit: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! <= limit) low = middle + 1;
    else high = middle;
  }
  return low;
}
