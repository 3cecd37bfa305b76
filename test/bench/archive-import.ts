// Imports one hourly file into a fresh archive and prints how long it took
// and this process's peak resident memory, for the archive bench. Then checks
// the books read back: for tokens drawn from the file, their rows are read
// straight from the file with DuckDB and replayed on the adapter's BookState,
// and the imported archive's book after each of a few rows must equal the
// replay's (`booksChecked`, `booksDiffering`).
import { DuckDBInstance } from '@duckdb/node-api';
import { BookState, toOrderBook } from '@predgate/adapter-polymarket/streams';
import type { MarketRow } from '@predgate/adapter-polymarket/streams';
import { PolymarketArchive } from '../../archive/src/index.js';
import { marketRowOf } from '../../archive/src/staged-rows.js';

const [file = '', dir = '', sampledTokens = '40'] = process.argv.slice(2);
const started = performance.now();
const imported = await PolymarketArchive.open({ dir, mode: 'read' });
await imported.importFiles([file]);
const ms = performance.now() - started;
// The import's peak, before the check below reads anything.
const maxRssBytes = process.resourceUsage().maxRSS * 1024;

let booksChecked = 0;
let booksDiffering = 0;
const instance = await DuckDBInstance.create(':memory:', { memory_limit: '256MB', threads: '1' });
const connection = await instance.connect();
const text = (column: string) => `CAST(${column} AS VARCHAR)`;
const tokens = await connection.runAndReadAll(
  `SELECT asset_id FROM (SELECT DISTINCT asset_id FROM read_parquet('${file}')) USING SAMPLE ${Number(sampledTokens)} ROWS (reservoir, 7) ORDER BY asset_id`,
);
for (const { asset_id: assetId } of tokens.getRowObjectsJS()) {
  const reader = await connection.runAndReadAll(
    `SELECT epoch_ms(timestamp_received) AS received, epoch_ms(timestamp) AS venue, decode(market) AS market, event_type, asset_id, bids, asks,
        ${['price', 'size', 'side', 'best_bid', 'best_ask', 'fee_rate_bps', 'transaction_hash', 'old_tick_size', 'new_tick_size'].map((column) => `${text(column)} AS ${column}`).join(', ')}
      FROM read_parquet('${file}', file_row_number = true) WHERE asset_id = '${String(assetId)}' ORDER BY timestamp_received, file_row_number`,
  );
  const rows: MarketRow[] = reader.getRowObjectsJS().map((row) =>
    marketRowOf({
      receivedAt: Number(row.received),
      timestamp: Number(row.venue),
      market: String(row.market),
      eventType: String(row.event_type),
      assetId: String(row.asset_id),
      bids: row.bids === null ? null : String(row.bids),
      asks: row.asks === null ? null : String(row.asks),
      price: row.price as string | null,
      size: row.size as string | null,
      side: row.side as string | null,
      bestBid: row.best_bid as string | null,
      bestAsk: row.best_ask as string | null,
      feeRateBps: row.fee_rate_bps as string | null,
      transactionHash: row.transaction_hash as string | null,
      oldTickSize: row.old_tick_size as string | null,
      newTickSize: row.new_tick_size as string | null,
    }),
  );
  const replay = new BookState(String(assetId));
  // The book after the first row, the last, and rows spread between, at the row's effective venue time (the latest
  // stamp so far: a row stamped earlier than one before it counts at that one's time), where the next row is later.
  const checked = new Set([0, rows.length - 1, ...[1, 2, 3, 4, 5, 6, 7].map((part) => Math.floor((rows.length * part) / 8))]);
  let effective = Number.NEGATIVE_INFINITY;
  for (let index = 0; index < rows.length; index += 1) {
    replay.apply(rows[index]!);
    effective = Math.max(effective, rows[index]!.timestamp);
    if (!checked.has(index) || !replay.known || (rows[index + 1]?.timestamp ?? Infinity) <= effective) continue;
    const book = await imported.bookAt(String(assetId), effective);
    booksChecked += 1;
    if (!book || JSON.stringify(toOrderBook(book)) !== JSON.stringify(toOrderBook(replay.snapshot()))) booksDiffering += 1;
  }
}
connection.closeSync();
instance.closeSync();
await imported.close();
process.stdout.write(JSON.stringify({ ms, maxRssBytes, booksChecked, booksDiffering }));
