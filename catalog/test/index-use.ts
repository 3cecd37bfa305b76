/**
 * How MongoDB can read a find through one index, judged from the key pattern
 * alone (the wire double has no `explain`): the leading fields the filter pins
 * to points bound the ranges, and the index yields the sort's order when the
 * sort's fields follow in order, pinned fields skipped (within one point they
 * are constant; several points are merged, as mongod does for `$in`).
 */
export interface IndexUse {
  /** Leading index fields the filter pins to points: the ranges read. */
  bounds: string[];
  /** The index yields documents in the sort's order: no sort in memory. */
  sorted: boolean;
  /** Filter fields outside the bounds: tested on each document the ranges yield. */
  residual: string[];
}

type Direction = 1 | -1;

export function indexUse(
  key: Readonly<Record<string, Direction>>,
  filter: Readonly<Record<string, unknown>>,
  sort: Readonly<Record<string, Direction>>,
): IndexUse {
  const pinned = new Set(Object.keys(filter).filter((field) => isPoint(filter[field])));
  const fields = Object.entries(key);
  const firstOpen = fields.findIndex(([field]) => !pinned.has(field));
  const bounds = (firstOpen === -1 ? fields : fields.slice(0, firstOpen)).map(([field]) => field);
  const residual = Object.keys(filter).filter((field) => !bounds.includes(field));
  return { bounds, sorted: yieldsOrder(fields, pinned, sort), residual };
}

function yieldsOrder(fields: Array<[string, Direction]>, pinned: Set<string>, sort: Readonly<Record<string, Direction>>): boolean {
  // A pinned field is one value in each range, so it needs no ordering.
  const wanted = Object.entries(sort).filter(([field]) => !pinned.has(field));
  let next = 0;
  let scan: Direction | undefined;
  for (const [field, direction] of fields) {
    if (next === wanted.length) break;
    const [sortField, sortDirection] = wanted[next]!;
    if (field === sortField) {
      // Read forwards or backwards, but the same way for every field.
      const way = (direction * sortDirection) as Direction;
      if (scan !== undefined && way !== scan) return false;
      scan = way;
      next += 1;
    } else if (!pinned.has(field)) {
      return false;
    }
  }
  return next === wanted.length;
}

/** An equality, or an `$in`/`$eq` of plain values: a point (or a few) of the index. */
function isPoint(condition: unknown): boolean {
  if (!isOperatorObject(condition)) return !(condition instanceof RegExp);
  const operators = Object.keys(condition);
  if (operators.length !== 1) return false;
  if (operators[0] === '$eq') return !isOperatorObject(condition.$eq) && !(condition.$eq instanceof RegExp);
  return operators[0] === '$in' && Array.isArray(condition.$in) && condition.$in.every((value) => !isOperatorObject(value) && !(value instanceof RegExp));
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).some((key) => key.startsWith('$'));
}
