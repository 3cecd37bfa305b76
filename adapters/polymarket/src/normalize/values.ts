import type { JsonList } from '../api/types.js';

/**
 * Polymarket's own reading of its list fields; numbers, times, fractions and
 * the other loose values are read with core's kit.
 */

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
