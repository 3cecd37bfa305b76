/**
 * Readers for the loosely typed values venues send. One meaning of a missing
 * value throughout: a field that is absent, `null`, `""` or `"null"` is
 * unknown, and reads as `undefined`, which the unified model carries by
 * leaving the member out. It never reads as 0. Checking that the fields an
 * adapter needs are there is the payload schema's job (`checkPayload`).
 */

type Loose = unknown;

function isBlank(value: Loose): boolean {
  return value === undefined || value === null || (typeof value === 'string' && (value.trim() === '' || value.trim() === 'null'));
}

/**
 * A finite number from a number or numeric string; undefined when unknown or not numeric.
 * Digits past a double's precision (an amount past 2^53 sent as text) round to the nearest double.
 */
export function toNumber(value: Loose): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value !== 'string' || isBlank(value)) return undefined;
  const parsed = Number(value.trim());
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** A price in [0, 1] from a fraction; float noise on resolved markets must not break the fraction invariant. */
export function toFraction(value: Loose): number | undefined {
  const numeric = toNumber(value);
  return numeric === undefined ? undefined : clampFraction(numeric);
}

/** A price in [0, 1] from a percentage (`42.8` is 0.428). */
export function percentToFraction(value: Loose): number | undefined {
  const numeric = toNumber(value);
  return numeric === undefined ? undefined : clampFraction(roundTo(numeric / 100, 10));
}

/**
 * A decimal amount from an integer in base units (`"1500000"` with 6 decimals is 1.5).
 * Exact for integers of any size sent as strings: the division is done on the digits.
 */
export function fromBaseUnits(value: Loose, decimals: number): number | undefined {
  if (isBlank(value)) return undefined;
  const digits = typeof value === 'number' ? (Number.isInteger(value) ? BigInt(value).toString() : undefined) : String(value).trim();
  if (digits === undefined || !/^-?\d+$/.test(digits)) return toNumber(value) === undefined ? undefined : toNumber(value)! / 10 ** decimals;
  const negative = digits.startsWith('-');
  const magnitude = (negative ? digits.slice(1) : digits).padStart(decimals + 1, '0');
  const text = `${magnitude.slice(0, magnitude.length - decimals)}.${magnitude.slice(magnitude.length - decimals)}`;
  const parsed = Number(text);
  return negative ? -parsed : parsed;
}

/**
 * Unix milliseconds from epoch seconds, epoch milliseconds or ISO text (`"2026-03-19 23:20:15+00"` included).
 * Venues send `0` or `"0"` for a time they do not have: that is unknown, never 1970-01-01
 * (read as a date, it would close every live market whose end time is unset).
 */
export function toEpochMs(value: Loose): number | undefined {
  const numeric = toNumber(value);
  if (numeric !== undefined) {
    if (numeric <= 0) return undefined;
    return numeric < 1e11 ? Math.round(numeric * 1000) : Math.round(numeric);
  }
  if (typeof value !== 'string' || isBlank(value)) return undefined;
  // Postgres-style offsets (`+00`) are not ISO: give them minutes.
  const iso = value
    .trim()
    .replace(' ', 'T')
    .replace(/(\d\d:\d\d(?::\d\d(?:\.\d+)?)?[+-]\d\d)$/, '$1:00');
  const parsed = Date.parse(iso);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** ISO 8601 text of a venue time (epoch seconds, milliseconds or text); undefined when unknown. */
export function toIsoDate(value: Loose): string | undefined {
  const ms = toEpochMs(value);
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

/** A list from a JSON array or JSON text of one (`"[\"Yes\", \"No\"]"`); undefined when unknown or unreadable. */
export function toList(value: Loose): string[] | undefined {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string' || isBlank(value)) return undefined;
  try {
    const parsed = JSON.parse(value) as unknown;
    return Array.isArray(parsed) ? parsed.map(String) : undefined;
  } catch {
    return undefined;
  }
}

/** A trimmed non-empty string, else undefined. */
export function text(value: Loose): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && !isBlank(value) ? value.trim() : undefined;
}

/** The object without members whose value is undefined (the unified schemas reject present-but-undefined members). */
export function compact<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, member]) => member !== undefined)) as T;
}

/** The named members the venue sent (null included, absent ones left out), for small `sourceMetadata` objects. */
export function pick(record: object, keys: readonly string[]): Record<string, unknown> {
  const source = record as Record<string, unknown>;
  return Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));
}

/** Rounds away float noise (1 − 0.87 is 0.13, not 0.12999999999999998). */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** The other side of a binary price, without float noise. */
export function complement(price: number): number {
  return roundTo(1 - price, 10);
}

function clampFraction(value: number): number {
  return Math.min(1, Math.max(0, value));
}
