import { toNumber } from '@predgate/core';

/**
 * Kalshi's number formats. Current payloads carry prices as dollar strings in
 * `<name>_dollars` and counts as fixed-point strings in `<name>_fp`; payloads
 * from before the 2026 migration carry integer cents in `<name>` and integer
 * counts in `<name>`. Readers prefer the current field and fall back to the
 * legacy one, so both read correctly.
 */

type Fields = Readonly<Record<string, unknown>> | null | undefined;

/** A price as a fraction of one dollar: `<name>_dollars`, else the legacy `<name>` in cents. */
export function dollarsField(fields: Fields, name: string): number | undefined {
  const dollars = toNumber(fields?.[`${name}_dollars`]);
  if (dollars !== undefined) return roundPrice(dollars);
  const cents = toNumber(fields?.[name]);
  return cents === undefined ? undefined : roundPrice(cents / 100);
}

/** A contract count: `<name>_fp`, else the legacy integer `<name>`. */
export function countField(fields: Fields, name: string): number | undefined {
  return toNumber(fields?.[`${name}_fp`]) ?? toNumber(fields?.[name]);
}

/** The other side of a binary contract's price, without float noise (1 − 0.87 is 0.13, not 0.12999999999999998). */
export function complement(price: number): number {
  return roundPrice(1 - price);
}

/** Prices carry at most six decimals on Kalshi; rounding there removes float noise from arithmetic. */
export function roundPrice(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** Milliseconds of an RFC 3339 time; undefined when absent or unreadable. */
export function timeMs(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** An ISO 8601 string for an RFC 3339 time; undefined when absent or unreadable. */
export function isoTime(value: unknown): string | undefined {
  const ms = timeMs(value);
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

/** Counts carry two decimals; rounding sums there keeps float noise out of them. */
export function roundCount(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Unix seconds, as Kalshi's `*_ts` query parameters take them. */
export function unixSeconds(date: Date | undefined): number | undefined {
  return date === undefined ? undefined : Math.floor(date.getTime() / 1000);
}
