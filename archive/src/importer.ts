import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { HourStore } from './hour-store.js';
import { hourKey } from './hours.js';
import { fileOrder, rollStaged, sqlText } from './roller.js';

export interface ImportReport {
  files: number;
  hours: string[];
  rows: number;
  /** Rows already held (recorded or imported before): counted once. */
  duplicates: number;
}

export interface ImportOptions {
  memoryLimit: string;
  checkpointEvery: number;
  isRecording(hour: number): boolean;
}

const required = ['timestamp_received', 'timestamp', 'market', 'event_type', 'asset_id'];
const hourMs = 3_600_000;

/**
 * Imports hourly files in pmxt's v2 format, in bounded memory: DuckDB reads
 * the file and the hour already held, drops rows held twice and stages the
 * rest on disk; the hour is then rolled like a recorded one (sorted out of
 * core, written one row group at a time), its books carried in from the hour
 * before.
 */
export async function importHourFiles(archive: HourStore, paths: string[], options: ImportOptions): Promise<ImportReport> {
  const report: ImportReport = { files: paths.length, hours: [], rows: 0, duplicates: 0 };
  for (const path of paths) {
    const instance = await DuckDBInstance.create(':memory:', { memory_limit: options.memoryLimit, threads: '1', preserve_insertion_order: 'false' });
    const connection = await instance.connect();
    try {
      const incoming = await selectRows(connection, path);
      const hours = await connection.runAndReadAll(`SELECT DISTINCT received // ${hourMs} * ${hourMs} AS hour FROM (${incoming}) ORDER BY hour`);
      for (const { hour } of hours.getRowObjectsJS()) {
        const start = Number(hour);
        if (options.isRecording(start)) {
          throw new Error(`${path} holds rows of ${hourKey(start)}, an hour still being recorded; import it once that hour is rolled`);
        }
        const counted = await importHour(archive, connection, path, incoming, start, options);
        report.rows += counted.added;
        report.duplicates += counted.duplicates;
        report.hours.push(hourKey(start));
      }
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  }
  return report;
}

async function importHour(
  archive: HourStore,
  connection: DuckDBConnection,
  path: string,
  incoming: string,
  start: number,
  options: ImportOptions,
): Promise<{ added: number; duplicates: number }> {
  const paths = archive.hourPaths(start);
  rmSync(paths.workDir, { recursive: true, force: true });
  mkdirSync(join(paths.workDir, 'duckdb'), { recursive: true });
  await connection.run(`SET temp_directory = '${sqlText(join(paths.workDir, 'duckdb'))}'`);
  try {
    const held = archive.factsFor(start);
    const sources = [`SELECT 0 AS source, * FROM (${incoming}) WHERE received // ${hourMs} * ${hourMs} = ${start}`];
    if (held) sources.unshift(`SELECT -1 AS source, * FROM (${await selectRows(connection, paths.data)})`);
    const staged = join(paths.workDir, 'staged.tsv');
    // One venue event counts once, whoever received it and whenever: identity leaves the receive time out.
    // Staged already in file order, so the roll does not sort the hour a second time.
    await connection.run(
      `COPY (SELECT received, venue, market, event_type, asset_id, bids, asks, price, size, side, best_bid, best_ask, fee_rate_bps,
            transaction_hash, old_tick_size, new_tick_size, row_number() OVER () AS seq
          FROM (${sources.join(' UNION ALL ')})
          QUALIFY row_number() OVER (PARTITION BY venue, event_type, market, asset_id, CAST(price AS DECIMAL(18,6)), CAST(size AS DECIMAL(18,6)),
            side, bids, asks, transaction_hash, CAST(new_tick_size AS DECIMAL(18,6)) ORDER BY source, received) = 1
          ORDER BY ${fileOrder})
       TO '${sqlText(staged)}' (FORMAT csv, DELIMITER '\t', HEADER false, QUOTE '', ESCAPE '', NULLSTR '')`,
    );
    const incomingRows = Number((await connection.runAndReadAll(`SELECT count(*) AS n FROM (${sources.at(-1)!})`)).getRowObjectsJS()[0]!.n);
    const result = await rollStaged({
      staged,
      presorted: true,
      startBooks: await carriedBooks(connection, archive, start),
      dataPath: paths.dataTemp,
      checkpointPath: paths.checkpointsTemp,
      workDir: paths.workDir,
      checkpointEvery: options.checkpointEvery,
      memoryLimit: options.memoryLimit,
    });
    await archive.publish(start, paths, result);
    const added = result.rows - (held?.rows ?? 0);
    return { added, duplicates: incomingRows - added };
  } finally {
    rmSync(paths.workDir, { recursive: true, force: true });
  }
}

/** Each token's last book of the hour before, where the hour's replay starts. */
async function carriedBooks(connection: DuckDBConnection, archive: HourStore, start: number): Promise<Map<string, string>> {
  const books = new Map<string, string>();
  const previous = archive.checkpointPath(start - hourMs);
  if (!archive.factsFor(start - hourMs) || !existsSync(previous)) return books;
  const reader = await connection.runAndReadAll(
    `SELECT asset_id, arg_max(snapshot, row) AS snapshot FROM read_parquet('${sqlText(previous)}') GROUP BY asset_id`,
  );
  for (const record of reader.getRowObjectsJS()) books.set(String(record.asset_id), String(record.snapshot));
  return books;
}

/**
 * A file's rows as staged text columns, whatever its physical types: times
 * as epoch ms, `market` as text (pmxt stores it as fixed binary), decimals as
 * text, levels as JSON text. Only pmxt's four event types are read.
 */
async function selectRows(connection: DuckDBConnection, path: string): Promise<string> {
  const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${sqlText(path)}')`);
  const types = new Map(described.getRowObjectsJS().map((column) => [String(column.column_name), String(column.column_type)]));
  const missing = required.filter((column) => !types.has(column));
  if (missing.length > 0) throw new Error(`${path} is not an hourly order-book file in pmxt's v2 format: no ${missing.join(', ')} column`);
  const time = (column: string) => (/^TIMESTAMP|^DATE/.test(types.get(column)!) ? `epoch_ms(CAST("${column}" AS TIMESTAMP))` : `CAST("${column}" AS BIGINT)`);
  const text = (column: string) => {
    const type = types.get(column);
    if (type === undefined) return 'NULL';
    if (type === 'BLOB') return `decode("${column}")`;
    if (type.endsWith('[]') || type.startsWith('STRUCT')) return `CAST(to_json("${column}") AS VARCHAR)`;
    return `NULLIF(CAST("${column}" AS VARCHAR), '')`;
  };
  return `SELECT ${time('timestamp_received')} AS received, ${time('timestamp')} AS venue, ${text('market')} AS market, ${text('event_type')} AS event_type,
      ${text('asset_id')} AS asset_id, ${text('bids')} AS bids, ${text('asks')} AS asks, ${text('price')} AS price, ${text('size')} AS size,
      upper(${text('side')}) AS side, ${text('best_bid')} AS best_bid, ${text('best_ask')} AS best_ask, ${text('fee_rate_bps')} AS fee_rate_bps,
      ${text('transaction_hash')} AS transaction_hash, ${text('old_tick_size')} AS old_tick_size, ${text('new_tick_size')} AS new_tick_size
    FROM read_parquet('${sqlText(path)}')
    WHERE event_type IN ('book', 'price_change', 'last_trade_price', 'tick_size_change')`;
}
