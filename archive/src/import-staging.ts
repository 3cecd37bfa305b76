import { DuckDBInstance } from '@duckdb/node-api';
import type { DuckDBConnection } from '@duckdb/node-api';
import { forEachLine } from './lines.js';
import { sqlText } from './roller.js';

const required = ['timestamp_received', 'timestamp', 'market', 'event_type', 'asset_id'];
const hourMs = 3_600_000;
/** Rows of the file being imported number after the held hour's (a file holds far fewer than 2^40 rows), so held rows sort first on a tie. */
const incomingSeq = 2 ** 40;

/**
 * The UTC hours (their start, epoch ms) a file in pmxt's v2 format holds rows
 * of, each with how many: counted in the one scan that finds the hours, so
 * staging an hour need not read the file again to count it.
 */
export async function hoursIn(path: string, memoryLimit: string): Promise<Array<{ start: number; rows: number }>> {
  return withDuckDb(memoryLimit, undefined, async (connection) => {
    const reader = await connection.runAndReadAll(
      `SELECT received // ${hourMs} * ${hourMs} AS hour, count(*) AS n FROM (${await selectRows(connection, path, 0)}) GROUP BY hour ORDER BY hour`,
    );
    return reader.getRowObjectsJS().map(({ hour, n }) => ({ start: Number(hour), rows: Number(n) }));
  });
}

export interface StageInput {
  /** The file being imported. */
  path: string;
  /** The hour whose rows are staged. */
  start: number;
  /** The hour's published file, when one is held: its rows are staged, with the file's rows it does not already hold. */
  held?: string;
  /** Where the staged lines go (see staged-rows.ts). */
  staged: string;
  memoryLimit: string;
  /** Where DuckDB spills beyond its memory limit. */
  spillDir: string;
}

/**
 * Stages an hour's rows for the roll, in DuckDB's memory limit whatever the
 * file's size: the file is read row group by row group and streamed to the
 * staged lines as it is read, nothing sorted, grouped or windowed; with a held
 * hour, the file's rows it already holds are left out by a hash join, which
 * DuckDB spills to disk beyond its limit. Returns how many lines were staged
 * (the COPY's own count, held rows included): the file is read once.
 */
export async function stageHour(input: StageInput): Promise<{ stagedRows: number }> {
  return withDuckDb(input.memoryLimit, input.spillDir, async (connection) => {
    const incoming = `SELECT * FROM (${await selectRows(connection, input.path, incomingSeq)}) WHERE received // ${hourMs} * ${hourMs} = ${input.start}`;
    let rows = incoming;
    if (input.held) {
      const held = await selectRows(connection, input.held, 0);
      rows = `${held} UNION ALL SELECT * FROM (${incoming}) AS incoming ANTI JOIN (${held}) AS held ON ${sameEvent}`;
    }
    const copied = await connection.run(
      `COPY (${rows}) TO '${sqlText(input.staged)}' (FORMAT csv, DELIMITER '\t', HEADER false, QUOTE '', ESCAPE '', NULLSTR '')`,
    );
    return { stagedRows: copied.rowsChanged };
  });
}

/**
 * One venue event counts once, whoever received it and whenever: the identity
 * leaves the receive time out, and compares decimals as numbers ("0.40" is "0.4").
 * Rows of the file being imported are all kept, as they were recorded.
 */
const sameEvent = [
  ...['venue', 'event_type', 'market', 'asset_id', 'side', 'bids', 'asks', 'transaction_hash'].map(
    (column) => `incoming.${column} IS NOT DISTINCT FROM held.${column}`,
  ),
  ...['price', 'size', 'new_tick_size'].map((column) => `CAST(incoming.${column} AS DECIMAL(18,6)) IS NOT DISTINCT FROM CAST(held.${column} AS DECIMAL(18,6))`),
].join(' AND ');

/**
 * Whether staged lines are already in file order (market, asset_id, received,
 * seq), as pmxt's files are written: then the roll need not sort them. Reads
 * the lines once, keeping only the one before.
 */
export function inFileOrder(staged: string): boolean {
  let ordered = true;
  let last: FileOrderKey = { market: '', assetId: '', received: -Infinity, seq: -Infinity };
  forEachLine(staged, (line) => {
    if (!ordered) return;
    // Staged columns: received, venue, market, event_type, asset_id, ..., seq.
    const fields = line.split('\t', 5);
    const key = { market: fields[2]!, assetId: fields[4]!, received: Number(fields[0]), seq: Number(line.slice(line.lastIndexOf('\t') + 1)) };
    ordered = compareFileOrder(last, key) <= 0;
    last = key;
  });
  return ordered;
}

interface FileOrderKey {
  market: string;
  assetId: string;
  received: number;
  seq: number;
}

function compareFileOrder(a: FileOrderKey, b: FileOrderKey): number {
  const text = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return text(a.market, b.market) || text(a.assetId, b.assetId) || a.received - b.received || a.seq - b.seq;
}

/**
 * A file's rows as staged text columns (in `stagedColumns` order), whatever
 * its physical types: times as epoch ms, `market` as text (pmxt stores it as
 * fixed binary), decimals as text, levels as JSON text; `seq` is `seqBase`
 * plus the row's position in the file. Only pmxt's four event types are read.
 */
async function selectRows(connection: DuckDBConnection, path: string, seqBase: number): Promise<string> {
  const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${sqlText(path)}')`);
  const types = new Map(described.getRowObjectsJS().map((column) => [String(column.column_name), String(column.column_type)]));
  const missing = required.filter((column) => !types.has(column));
  if (missing.length > 0) throw new Error(`${path} is not an hourly order-book file in pmxt's v2 format: no ${missing.join(', ')} column`);
  const time = (column: string) => {
    const type = types.get(column)!;
    // UTC times (pmxt's) straight to epoch ms: a cast to TIMESTAMP first would shift them by the machine's time zone.
    if (type === 'TIMESTAMP WITH TIME ZONE') return `epoch_ms("${column}")`;
    return /^TIMESTAMP|^DATE/.test(type) ? `epoch_ms(CAST("${column}" AS TIMESTAMP))` : `CAST("${column}" AS BIGINT)`;
  };
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
      ${text('transaction_hash')} AS transaction_hash, ${text('old_tick_size')} AS old_tick_size, ${text('new_tick_size')} AS new_tick_size,
      ${seqBase} + file_row_number AS seq
    FROM read_parquet('${sqlText(path)}', file_row_number = true)
    WHERE event_type IN ('book', 'price_change', 'last_trade_price', 'tick_size_change')`;
}

/**
 * Runs `work` on a DuckDB of its own, closed after: one thread, the given
 * memory limit, spilling to `spillDir`.
 */
export async function withDuckDb<T>(memoryLimit: string, spillDir: string | undefined, work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(':memory:', {
    memory_limit: memoryLimit,
    threads: '1',
    preserve_insertion_order: 'false',
    ...(spillDir ? { temp_directory: spillDir } : {}),
  });
  const connection = await instance.connect();
  try {
    return await work(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
