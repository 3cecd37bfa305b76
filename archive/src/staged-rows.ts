import type { MarketRow, PriceLevel } from '@predgate/adapter-polymarket/streams';

/**
 * A row as the files hold it: every column text (or null), `bids`/`asks`
 * already the pmxt JSON text. Staged rows are tab-separated lines, which
 * DuckDB sorts out of core; no value can hold a tab or a newline (ids,
 * decimals and sides are checked by the frame reader, levels are decimals).
 */
export interface StagedRow {
  receivedAt: number;
  timestamp: number;
  market: string;
  eventType: string;
  assetId: string;
  bids: string | null;
  asks: string | null;
  price: string | null;
  size: string | null;
  side: string | null;
  bestBid: string | null;
  bestAsk: string | null;
  feeRateBps: string | null;
  transactionHash: string | null;
  oldTickSize: string | null;
  newTickSize: string | null;
}

/** DuckDB's view of a staged line, in column order; `seq` (the journal order) breaks ties. */
export const stagedColumns =
  "{'received':'BIGINT','venue':'BIGINT','market':'VARCHAR','event_type':'VARCHAR','asset_id':'VARCHAR','bids':'VARCHAR','asks':'VARCHAR'," +
  "'price':'VARCHAR','size':'VARCHAR','side':'VARCHAR','best_bid':'VARCHAR','best_ask':'VARCHAR','fee_rate_bps':'VARCHAR'," +
  "'transaction_hash':'VARCHAR','old_tick_size':'VARCHAR','new_tick_size':'VARCHAR','seq':'BIGINT'}";

/** pmxt's level text: `[["price","size"],...]`, the venue's own strings in the venue's order. */
export function levelsText(levels: PriceLevel[] | undefined): string | null {
  if (!levels) return null;
  let text = '[';
  for (let index = 0; index < levels.length; index += 1) {
    const level = levels[index]!;
    text += `${index === 0 ? '' : ','}["${level.price}","${level.size}"]`;
  }
  return `${text}]`;
}

/** The staged line of a row, `seq` its position in the journal. */
export function stagedLine(row: MarketRow, seq: number): string {
  return `${row.receivedAt}\t${row.timestamp}\t${row.market}\t${row.eventType}\t${row.assetId}\t${levelsText(row.bids) ?? ''}\t${levelsText(row.asks) ?? ''}\t${row.price ?? ''}\t${row.size ?? ''}\t${row.side ?? ''}\t${row.bestBid ?? ''}\t${row.bestAsk ?? ''}\t${row.feeRateBps ?? ''}\t${row.transactionHash ?? ''}\t${row.oldTickSize ?? ''}\t${row.newTickSize ?? ''}\t${seq}\n`;
}

export function parseStagedLine(line: string): StagedRow {
  const f = line.split('\t');
  const v = (index: number) => (f[index] === '' || f[index] === undefined ? null : f[index]!);
  return {
    receivedAt: Number(f[0]),
    timestamp: Number(f[1]),
    market: f[2]!,
    eventType: f[3]!,
    assetId: f[4]!,
    bids: v(5),
    asks: v(6),
    price: v(7),
    size: v(8),
    side: v(9),
    bestBid: v(10),
    bestAsk: v(11),
    feeRateBps: v(12),
    transactionHash: v(13),
    oldTickSize: v(14),
    newTickSize: v(15),
  };
}

/** The market row a staged row describes, levels read back from pmxt's pairs. */
export function marketRowOf(row: StagedRow): MarketRow {
  const result: MarketRow = {
    receivedAt: row.receivedAt,
    timestamp: row.timestamp,
    market: row.market,
    eventType: row.eventType as MarketRow['eventType'],
    assetId: row.assetId,
  };
  if (row.bids !== null) result.bids = levelsOf(row.bids);
  if (row.asks !== null) result.asks = levelsOf(row.asks);
  if (row.price !== null) result.price = row.price;
  if (row.size !== null) result.size = row.size;
  if (row.side === 'BUY' || row.side === 'SELL') result.side = row.side;
  if (row.bestBid !== null) result.bestBid = row.bestBid;
  if (row.bestAsk !== null) result.bestAsk = row.bestAsk;
  if (row.feeRateBps !== null) result.feeRateBps = row.feeRateBps;
  if (row.transactionHash !== null) result.transactionHash = row.transactionHash;
  if (row.oldTickSize !== null) result.oldTickSize = row.oldTickSize;
  if (row.newTickSize !== null) result.newTickSize = row.newTickSize;
  return result;
}

/** pmxt's `[["price","size"],...]` (or a file's `[{"price","size"}]`) as levels, strings untouched. */
export function levelsOf(text: string): PriceLevel[] {
  const parsed = JSON.parse(text) as unknown;
  if (!Array.isArray(parsed)) throw new Error(`levels "${text.slice(0, 80)}" are not a list`);
  return parsed.map((level: unknown) => {
    if (Array.isArray(level)) return { price: String(level[0]), size: String(level[1]) };
    const { price, size } = level as { price: unknown; size: unknown };
    return { price: String(price), size: String(size) };
  });
}
