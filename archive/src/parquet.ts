import { DuckDBInstance } from '@duckdb/node-api';
import type { DuckDBConnection } from '@duckdb/node-api';
import { marketEventTypes } from '@predgate/adapter-polymarket/streams';
import type { BookSnapshot, MarketEventType, MarketRow, PriceLevel } from '@predgate/adapter-polymarket/streams';
import type { Checkpoint, IndexedRow } from './reconstruct.js';

/**
 * pmxt's v2 hourly columns, in order. Times are UTC TIMESTAMPs (ms precision),
 * ids and sides VARCHAR (condition ids are variable length), decimals DOUBLE,
 * `bids`/`asks` the venue's level list as JSON text.
 */
export const v2Columns = [
  'timestamp_received',
  'timestamp',
  'market',
  'event_type',
  'asset_id',
  'bids',
  'asks',
  'price',
  'size',
  'side',
  'best_bid',
  'best_ask',
  'fee_rate_bps',
  'transaction_hash',
  'old_tick_size',
  'new_tick_size',
] as const;

const decimalColumns = ['price', 'size', 'best_bid', 'best_ask', 'fee_rate_bps', 'old_tick_size', 'new_tick_size'] as const;

/** One DuckDB connection, used one statement at a time. */
export class ParquetFiles {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
  ) {}

  static async open(): Promise<ParquetFiles> {
    const instance = await DuckDBInstance.create(':memory:');
    return new ParquetFiles(instance, await instance.connect());
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }

  /** Writes rows (in the order given) as one ZSTD Parquet file at `path`. */
  writeRows(path: string, rows: MarketRow[]): Promise<void> {
    return this.serial(async () => {
      await this.connection.run(
        `CREATE OR REPLACE TEMP TABLE staged (received BIGINT, venue BIGINT, market VARCHAR, event_type VARCHAR, asset_id VARCHAR, bids VARCHAR, asks VARCHAR,
          price VARCHAR, size VARCHAR, side VARCHAR, best_bid VARCHAR, best_ask VARCHAR, fee_rate_bps VARCHAR, transaction_hash VARCHAR, old_tick_size VARCHAR, new_tick_size VARCHAR, position BIGINT)`,
      );
      const appender = await this.connection.createAppender('staged');
      const text = (value: string | undefined) => (value === undefined ? appender.appendNull() : appender.appendVarchar(value));
      rows.forEach((row, position) => {
        appender.appendBigInt(BigInt(row.receivedAt));
        appender.appendBigInt(BigInt(row.timestamp));
        appender.appendVarchar(row.market);
        appender.appendVarchar(row.eventType);
        appender.appendVarchar(row.assetId);
        text(row.bids ? JSON.stringify(row.bids) : undefined);
        text(row.asks ? JSON.stringify(row.asks) : undefined);
        text(row.price);
        text(row.size);
        text(row.side);
        text(row.bestBid);
        text(row.bestAsk);
        text(row.feeRateBps);
        text(row.transactionHash);
        text(row.oldTickSize);
        text(row.newTickSize);
        appender.appendBigInt(BigInt(position));
        appender.endRow();
      });
      appender.flushSync();
      appender.closeSync();
      const decimals = decimalColumns.map((column) => `CAST(${column} AS DOUBLE) AS ${column}`);
      await this.connection.run(
        `COPY (SELECT epoch_ms(received) AS timestamp_received, epoch_ms(venue) AS timestamp, market, event_type, asset_id, bids, asks,
           ${decimals.slice(0, 2).join(', ')}, side, ${decimals.slice(2, 5).join(', ')}, transaction_hash, ${decimals.slice(5).join(', ')}
           FROM staged ORDER BY position) TO '${sqlText(path)}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000)`,
      );
      await this.connection.run('DROP TABLE staged');
    });
  }

  /** One token's rows of an hourly file, in file order. */
  readAssetRows(path: string, assetId: string): Promise<IndexedRow[]> {
    return this.serial(async () => {
      // Our own files have known types: read the columns as stored, which costs DuckDB far less than converting them.
      const reader = await this.connection.runAndReadAll(
        `SELECT file_row_number, epoch_ms(timestamp_received) AS timestamp_received, epoch_ms("timestamp") AS "timestamp", ${v2Columns
          .slice(2)
          .map((column) => `"${column}"`)
          .join(', ')}
         FROM read_parquet('${sqlText(path)}', file_row_number = true) WHERE asset_id = $1`,
        [assetId],
      );
      return reader
        .getRowObjectsJS()
        .map((record) => rowFrom(record, path))
        .sort((a, b) => a.row - b.row);
    });
  }

  /** Every row of a file, in file order; the file may be ours or pmxt's (numbers or text, TIMESTAMPs or epoch ms). */
  readAllRows(path: string): Promise<IndexedRow[]> {
    return this.serial(async () => {
      const described = await this.connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${sqlText(path)}')`);
      const types = new Map(described.getRowObjectsJS().map((column) => [String(column.column_name), String(column.column_type)]));
      const missing = ['timestamp_received', 'timestamp', 'market', 'event_type', 'asset_id'].filter((column) => !types.has(column));
      if (missing.length > 0) throw new Error(`${path} is not an hourly order-book file in pmxt's v2 format: no ${missing.join(', ')} column`);
      const reader = await this.connection.runAndReadAll(`${selectRows(path, types)} ORDER BY file_row_number`);
      return reader.getRowObjectsJS().map((record) => rowFrom(record, path));
    });
  }

  countRows(path: string): Promise<number> {
    return this.serial(async () => {
      const reader = await this.connection.runAndReadAll(`SELECT count(*) AS n FROM read_parquet('${sqlText(path)}')`);
      return Number(reader.getRowObjectsJS()[0]!.n);
    });
  }

  writeCheckpoints(path: string, checkpoints: Checkpoint[]): Promise<void> {
    return this.serial(async () => {
      await this.connection.run('CREATE OR REPLACE TEMP TABLE staged_checkpoints (asset_id VARCHAR, row BIGINT, received BIGINT, snapshot VARCHAR)');
      const appender = await this.connection.createAppender('staged_checkpoints');
      for (const checkpoint of checkpoints) {
        appender.appendVarchar(checkpoint.assetId);
        appender.appendBigInt(BigInt(checkpoint.row));
        appender.appendBigInt(BigInt(checkpoint.receivedAt));
        appender.appendVarchar(JSON.stringify(checkpoint.snapshot));
        appender.endRow();
      }
      appender.flushSync();
      appender.closeSync();
      await this.connection.run(`COPY (SELECT * FROM staged_checkpoints ORDER BY asset_id, row) TO '${sqlText(path)}' (FORMAT parquet, COMPRESSION zstd)`);
      await this.connection.run('DROP TABLE staged_checkpoints');
    });
  }

  /** Every checkpoint of an hour by token, in row order: one read serves every later query on that hour. */
  readCheckpoints(path: string): Promise<Map<string, Checkpoint[]>> {
    return this.serial(async () => {
      const reader = await this.connection.runAndReadAll(
        `SELECT asset_id, row, received, snapshot FROM read_parquet('${sqlText(path)}') ORDER BY asset_id, row`,
      );
      const byAsset = new Map<string, Checkpoint[]>();
      for (const record of reader.getRowObjectsJS()) {
        const assetId = String(record.asset_id);
        let list = byAsset.get(assetId);
        if (!list) byAsset.set(assetId, (list = []));
        list.push({ assetId, row: Number(record.row), receivedAt: Number(record.received), snapshot: JSON.parse(String(record.snapshot)) as BookSnapshot });
      }
      return byAsset;
    });
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function sqlText(value: string): string {
  return value.replaceAll("'", "''");
}

/** Reads any of the v2 columns whatever their physical type: times as epoch ms, decimals as text. */
function selectRows(path: string, types?: Map<string, string>): string {
  const time = (column: string) => {
    const type = types?.get(column) ?? 'TIMESTAMP';
    if (/^TIMESTAMP|^DATE/.test(type)) return `epoch_ms(CAST("${column}" AS TIMESTAMP)) AS "${column}"`;
    return `CAST("${column}" AS BIGINT) AS "${column}"`;
  };
  const column = (name: string) => (types && !types.has(name) ? `NULL AS "${name}"` : `"${name}"`);
  const decimal = (name: string) => (types && !types.has(name) ? `NULL AS "${name}"` : `CAST("${name}" AS VARCHAR) AS "${name}"`);
  const levels = (name: string) => (types && !types.has(name) ? `NULL AS "${name}"` : `CAST(to_json("${name}") AS VARCHAR) AS "${name}"`);
  return `SELECT file_row_number, ${time('timestamp_received')}, ${time('timestamp')}, ${column('market')}, ${column('event_type')}, ${column('asset_id')},
    ${levels('bids')}, ${levels('asks')}, ${decimalColumns.map(decimal).join(', ')}, ${column('side')}, ${column('transaction_hash')}
    FROM read_parquet('${sqlText(path)}', file_row_number = true)`;
}

function rowFrom(record: Record<string, unknown>, path: string): IndexedRow {
  const eventType = String(record.event_type) as MarketEventType;
  if (!marketEventTypes.includes(eventType)) throw new Error(`${path}: event_type "${eventType}" is not a market-channel message`);
  const text = (value: unknown) => (value === null || value === undefined || value === '' ? undefined : String(value));
  const decimal = (value: unknown) => {
    const found = text(value);
    return found === undefined ? undefined : String(Number(found));
  };
  const side = text(record.side)?.toUpperCase();
  const row: IndexedRow = {
    row: Number(record.file_row_number),
    receivedAt: Number(record.timestamp_received),
    timestamp: Number(record.timestamp),
    market: text(record.market) ?? '',
    eventType,
    assetId: text(record.asset_id) ?? '',
  };
  const optional: Partial<MarketRow> = {
    bids: levelsFrom(record.bids),
    asks: levelsFrom(record.asks),
    price: decimal(record.price),
    size: decimal(record.size),
    side: side === 'BUY' || side === 'SELL' ? side : undefined,
    bestBid: decimal(record.best_bid),
    bestAsk: decimal(record.best_ask),
    feeRateBps: decimal(record.fee_rate_bps),
    transactionHash: text(record.transaction_hash),
    oldTickSize: decimal(record.old_tick_size),
    newTickSize: decimal(record.new_tick_size),
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) (row as unknown as Record<string, unknown>)[key] = value;
  return row;
}

/** Levels as JSON text: ours (`[{price,size}]`), or pairs, or a list column DuckDB turned into JSON. */
function levelsFrom(value: unknown): PriceLevel[] | undefined {
  if (value === null || value === undefined) return undefined;
  let parsed: unknown = JSON.parse(String(value));
  if (typeof parsed === 'string') parsed = JSON.parse(parsed);
  if (!Array.isArray(parsed)) return undefined;
  return parsed.map((level: unknown) => {
    if (Array.isArray(level)) return { price: String(Number(level[0])), size: String(Number(level[1])) };
    const { price, size } = level as { price: unknown; size: unknown };
    return { price: String(Number(price)), size: String(Number(size)) };
  });
}
