import type { JsonList, Numeric } from '../api/types.js';

/**
 * Readers for the loosely typed values Polymarket sends: numbers as strings
 * (`".48"`), lists as JSON text inside JSON, timestamps in seconds,
 * milliseconds or ISO text.
 */

/** A finite number from a number or numeric string; undefined for anything else (`""`, null, NaN). */
export function toNumber(value: Numeric | null | undefined): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** `outcomes`, `outcomePrices` and `clobTokenIds` arrive as `"[\"Yes\", \"No\"]"`; websocket paths send real arrays. */
export function toList(value: JsonList | null | undefined): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string' || value.trim() === '') return [];
  try {
    const parsed = JSON.parse(value) as unknown;
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

/** Unix milliseconds from epoch seconds, epoch milliseconds or ISO text (`"2026-03-19 23:20:15+00"` included). */
export function toEpochMs(value: Numeric | null | undefined): number | undefined {
  const numeric = toNumber(value);
  if (numeric !== undefined) return numeric < 1e11 ? Math.round(numeric * 1000) : Math.round(numeric);
  if (typeof value !== 'string') return undefined;
  // Postgres-style offsets (`+00`) are not ISO: give them minutes.
  const iso = value.replace(' ', 'T').replace(/(\d\d:\d\d(?::\d\d(?:\.\d+)?)?[+-]\d\d)$/, '$1:00');
  const parsed = Date.parse(iso);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** ISO 8601 form of a venue date, or undefined when it does not parse. */
export function toIsoDate(value: string | undefined): string | undefined {
  const ms = toEpochMs(value);
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

/** Keeps prices inside [0, 1]: float noise on resolved markets must not break the fraction invariant. */
export function toFraction(value: Numeric | null | undefined): number | undefined {
  const numeric = toNumber(value);
  return numeric === undefined ? undefined : Math.min(1, Math.max(0, numeric));
}

/** The object without members whose value is undefined (the unified model has no undefined members). */
export function compact<T extends Record<string, unknown>>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}

/** The members of `record` named in `keys` that are present, for small `sourceMetadata` objects. */
export function pick(record: object, keys: readonly string[]): Record<string, unknown> {
  const source = record as Record<string, unknown>;
  return Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));
}
