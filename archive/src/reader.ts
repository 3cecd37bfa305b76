import { DuckDBInstance } from '@duckdb/node-api';
import type { DuckDBConnection, DuckDBPreparedStatement, DuckDBResultReader, JS } from '@duckdb/node-api';
import type { BookSnapshot, MarketRow } from '@predgate/adapter-polymarket/streams';
import type { Checkpoint, IndexedRow } from './reconstruct.js';
import { levelsOf } from './staged-rows.js';

/** One connection of the pool with its statements, prepared once: a query only binds the file and the token. */
interface Session {
  connection: DuckDBConnection;
  checkpoints: DuckDBPreparedStatement;
  rows: DuckDBPreparedStatement;
}

/**
 * Reads closed hours: a token's checkpoints from the hour's checkpoint file
 * (sorted by token, so DuckDB reads one row group), then its rows from the
 * data file filtered by market and token (the file is sorted by both, so
 * row groups of other markets are skipped). A pool of connections answers
 * queries side by side, each query holding one connection and its prepared
 * statements until it has read its rows; DuckDB keeps each file's metadata cached.
 */
export class HourReader {
  private readonly waiting: ((session: Session) => void)[] = [];

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly sessions: Session[],
    private readonly idle: Session[],
  ) {}

  static async open(connections = 2): Promise<HourReader> {
    const instance = await DuckDBInstance.create(':memory:', { enable_object_cache: 'true', threads: '2' });
    const sessions: Session[] = [];
    for (let index = 0; index < connections; index += 1) {
      const connection = await instance.connect();
      sessions.push({
        connection,
        checkpoints: await connection.prepare('SELECT row, snapshot FROM read_parquet($1) WHERE asset_id = $2 ORDER BY row'),
        rows: await connection.prepare(
          `SELECT epoch_ms(timestamp_received) AS received, epoch_ms("timestamp") AS venue, event_type, bids, asks,
             CAST(price AS VARCHAR) AS price, CAST(size AS VARCHAR) AS size, side, CAST(best_bid AS VARCHAR) AS best_bid,
             CAST(best_ask AS VARCHAR) AS best_ask, CAST(fee_rate_bps AS VARCHAR) AS fee_rate_bps, transaction_hash,
             CAST(old_tick_size AS VARCHAR) AS old_tick_size, CAST(new_tick_size AS VARCHAR) AS new_tick_size
           FROM read_parquet($1, file_row_number = true) WHERE market = encode($2) AND asset_id = $3 ORDER BY file_row_number`,
        ),
      });
    }
    return new HourReader(instance, sessions, [...sessions]);
  }

  async checkpoints(path: string, assetId: string): Promise<Checkpoint[]> {
    const records = await this.query((session) => {
      session.checkpoints.bind([path, assetId]);
      return session.checkpoints.runAndReadAll();
    });
    return records.map((record) => ({ assetId, row: Number(record.row), snapshot: JSON.parse(String(record.snapshot)) as BookSnapshot }));
  }

  /** The token's rows of an hour file in file order, numbered from 0 (its position among the token's rows). */
  async rows(path: string, market: string, assetId: string): Promise<IndexedRow[]> {
    const records = await this.query((session) => {
      session.rows.bind([path, market, assetId]);
      return session.rows.runAndReadAll();
    });
    return records.map((record, position) => {
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
    const [record] = await this.query((session) => session.connection.runAndReadAll('SELECT count(*) AS n FROM read_parquet($1)', [path]));
    return Number(record!.n);
  }

  close(): void {
    for (const session of this.sessions) {
      session.checkpoints.destroySync();
      session.rows.destroySync();
      session.connection.closeSync();
    }
    this.instance.closeSync();
  }

  /** Runs one query on a connection of its own (bindings are per statement, so a statement serves one query at a time). */
  private async query(run: (session: Session) => Promise<DuckDBResultReader>): Promise<Record<string, JS>[]> {
    const session = this.idle.pop() ?? (await new Promise<Session>((resolve) => this.waiting.push(resolve)));
    try {
      return (await run(session)).getRowObjectsJS();
    } finally {
      const next = this.waiting.shift();
      if (next) next(session);
      else this.idle.push(session);
    }
  }
}
