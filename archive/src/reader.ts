import { DuckDBInstance } from '@duckdb/node-api';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { BookSnapshot, MarketRow } from '@predgate/adapter-polymarket/streams';
import type { Checkpoint, IndexedRow } from './reconstruct.js';
import { sqlText } from './roller.js';
import { levelsOf } from './staged-rows.js';

/**
 * Reads closed hours: a token's checkpoints from the hour's checkpoint file
 * (sorted by token, so DuckDB reads one row group), then its rows from the
 * data file filtered by market and token (the file is sorted by both, so
 * row groups of other markets are skipped). A few connections answer queries
 * side by side; DuckDB keeps each file's metadata cached.
 */
export class HourReader {
  private next = 0;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connections: DuckDBConnection[],
  ) {}

  static async open(connections = 2): Promise<HourReader> {
    const instance = await DuckDBInstance.create(':memory:', { enable_object_cache: 'true', threads: '2' });
    const opened: DuckDBConnection[] = [];
    for (let index = 0; index < connections; index += 1) opened.push(await instance.connect());
    return new HourReader(instance, opened);
  }

  async checkpoints(path: string, assetId: string): Promise<Checkpoint[]> {
    const reader = await this.connection().runAndReadAll(`SELECT row, snapshot FROM read_parquet('${sqlText(path)}') WHERE asset_id = $1 ORDER BY row`, [
      assetId,
    ]);
    return reader.getRowObjectsJS().map((record) => ({ assetId, row: Number(record.row), snapshot: JSON.parse(String(record.snapshot)) as BookSnapshot }));
  }

  /** The token's rows of an hour file in file order, numbered from 0 (its position among the token's rows). */
  async rows(path: string, market: string, assetId: string): Promise<IndexedRow[]> {
    const reader = await this.connection().runAndReadAll(
      `SELECT epoch_ms(timestamp_received) AS received, epoch_ms("timestamp") AS venue, event_type, bids, asks,
         CAST(price AS VARCHAR) AS price, CAST(size AS VARCHAR) AS size, side, CAST(best_bid AS VARCHAR) AS best_bid,
         CAST(best_ask AS VARCHAR) AS best_ask, CAST(fee_rate_bps AS VARCHAR) AS fee_rate_bps, transaction_hash,
         CAST(old_tick_size AS VARCHAR) AS old_tick_size, CAST(new_tick_size AS VARCHAR) AS new_tick_size
       FROM read_parquet('${sqlText(path)}', file_row_number = true) WHERE market = encode($1) AND asset_id = $2 ORDER BY file_row_number`,
      [market, assetId],
    );
    return reader.getRowObjectsJS().map((record, position) => {
      const row: IndexedRow = {
        row: position,
        receivedAt: Number(record.received),
        timestamp: Number(record.venue),
        market,
        eventType: String(record.event_type) as MarketRow['eventType'],
        assetId,
      };
      const text = (value: unknown) => (value === null || value === undefined ? undefined : String(value));
      if (record.bids !== null) row.bids = levelsOf(String(record.bids));
      if (record.asks !== null) row.asks = levelsOf(String(record.asks));
      const optional: Partial<MarketRow> = {
        price: text(record.price),
        size: text(record.size),
        side: record.side === 'BUY' || record.side === 'SELL' ? record.side : undefined,
        bestBid: text(record.best_bid),
        bestAsk: text(record.best_ask),
        feeRateBps: text(record.fee_rate_bps),
        transactionHash: text(record.transaction_hash),
        oldTickSize: text(record.old_tick_size),
        newTickSize: text(record.new_tick_size),
      };
      for (const [key, value] of Object.entries(optional)) if (value !== undefined) (row as unknown as Record<string, unknown>)[key] = value;
      return row;
    });
  }

  async countRows(path: string): Promise<number> {
    const reader = await this.connection().runAndReadAll(`SELECT count(*) AS n FROM read_parquet('${sqlText(path)}')`);
    return Number(reader.getRowObjectsJS()[0]!.n);
  }

  close(): void {
    for (const connection of this.connections) connection.closeSync();
    this.instance.closeSync();
  }

  private connection(): DuckDBConnection {
    this.next = (this.next + 1) % this.connections.length;
    return this.connections[this.next]!;
  }
}
