import { venueId } from './venue.js';

/** Ids: an event and its one market are `rain:<pool>`, an outcome `rain:<pool>:<choiceIndex>`. */
export const poolKey = (id: string) => `${venueId}:${id}`;

/** The pool (and option) an id names, with or without `rain:`; undefined when it is not one of Rain's. */
export function partsOf(id: string): { poolId: string; choice?: number; no?: true } | undefined {
  const match = /^(?:rain:)?([0-9a-f]{24})(?::(\d{1,3})(:no)?)?$/.exec(id);
  if (!match) return undefined;
  return { poolId: match[1]!, ...(match[2] === undefined ? {} : { choice: Number(match[2]) }), ...(match[3] ? { no: true as const } : {}) };
}

/** `rain:<pool>` for any id naming a pool (bare, prefixed, or with an option); other text unchanged, to be not found. */
export function canonicalPool(id: string): string {
  const parts = partsOf(id);
  return parts ? `${venueId}:${parts.poolId}` : id;
}
