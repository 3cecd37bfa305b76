import type { MarketRow, PriceLevel } from '@predgate/adapter-polymarket/streams';

/** A time a connection was down: books of `assetIds` (every token when absent) are unknown between `from` and `to`. */
export interface GapMarker {
  from: number;
  to: number;
  assetIds?: string[];
  reason: string;
}

/**
 * What identifies a venue event regardless of who received it and when: the
 * importer and the recorder may both hold the same message, and it must count once.
 */
export function rowIdentity(row: MarketRow): string {
  return JSON.stringify([
    row.timestamp,
    row.eventType,
    row.market,
    row.assetId,
    row.price ?? null,
    row.size ?? null,
    row.side ?? null,
    row.bids ? levelsText(row.bids) : null,
    row.asks ? levelsText(row.asks) : null,
    row.transactionHash ?? null,
    row.newTickSize ?? null,
  ]);
}

/** Levels as numbers-in-text, so "0.50" and "0.5" (a string file and a numeric file) compare equal. */
function levelsText(levels: PriceLevel[]): string {
  return levels.map((level) => `${Number(level.price)}:${Number(level.size)}`).join(',');
}
