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
