import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { BookState } from '@predgate/adapter-polymarket/streams';
import type { BookSnapshot } from '@predgate/adapter-polymarket/streams';
import { HourFileWriter } from './hour-file.js';
import { forEachLine, LineWriter } from './lines.js';
import { marketRowOf, parseStagedLine, stagedColumns } from './staged-rows.js';

export interface RollInput {
  /** Staged rows of one hour, in the order they were recorded (tab-separated lines, see staged-rows.ts). */
  staged: string;
  /** True when the staged rows are already in file order (market, asset_id, received, seq): the sort is skipped. */
  presorted?: boolean;
  /**
   * Books carried into the hour, by token, as JSON text (a parsed book takes
   * several times the memory, and a busy hour carries tens of thousands):
   * where each token's replay starts. The roll empties the map as it goes.
   */
  startBooks: Map<string, string>;
  /** Where the data file and the checkpoint file are written (temporary names; the caller publishes them). */
  dataPath: string;
  checkpointPath: string;
  /** Scratch space for DuckDB's sort and the sorted rows. */
  workDir: string;
  checkpointEvery: number;
  /** DuckDB's memory limit for the sort, e.g. `'512MB'`; beyond it the sort spills to `workDir`. */
  memoryLimit: string;
}

export interface RollResult {
  rows: number;
  /** The rolling process's peak resident memory, bytes (the whole process when rolled in place). */
  peakRssBytes?: number;
  /** The latest receive time in the hour, when it has rows. */
  lastReceivedAt?: number;
}

/**
 * Turns one hour of staged rows into its published file and its checkpoints,
 * in bounded memory: DuckDB sorts the rows out of core into pmxt's order
 * (market, asset_id, timestamp_received; recording order breaks ties), then
 * the sorted rows stream into the file writer one row group at a time while
 * each token's book is replayed, one token at a time, for its checkpoints.
 */
export async function rollStaged(input: RollInput): Promise<RollResult> {
  const sorted = input.presorted ? input.staged : join(input.workDir, 'sorted.tsv');
  const checkpointLines = join(input.workDir, 'checkpoints.tsv');
  const instance = await DuckDBInstance.create(':memory:', {
    memory_limit: input.memoryLimit,
    temp_directory: join(input.workDir, 'duckdb'),
    threads: '1',
    preserve_insertion_order: 'false',
  });
  const connection = await instance.connect();
  try {
    if (!input.presorted) {
      await connection.run(
        `COPY (SELECT * FROM read_csv('${sqlText(input.staged)}', auto_detect=false, delim='\t', quote='', escape='', header=false, nullstr='', columns=${stagedColumns})
          ORDER BY ${fileOrder})
         TO '${sqlText(sorted)}' (FORMAT csv, DELIMITER '\t', HEADER false, QUOTE '', ESCAPE '', NULLSTR '')`,
      );
    }
    const writer = await HourFileWriter.create(input.dataPath);
    const checkpoints = new LineWriter(checkpointLines);
    const result: RollResult = { rows: 0 };
    let token: TokenRun | undefined;
    // Synchronous: this process has nothing else to do meanwhile, and a promise per row costs more than the row.
    forEachLine(sorted, (line) => {
      const staged = parseStagedLine(line);
      writer.add(staged);
      result.rows += 1;
      result.lastReceivedAt = Math.max(result.lastReceivedAt ?? staged.receivedAt, staged.receivedAt);
      if (token?.assetId !== staged.assetId) {
        token?.finish(checkpoints);
        const carried = input.startBooks.get(staged.assetId);
        input.startBooks.delete(staged.assetId);
        token = new TokenRun(staged.assetId, carried === undefined ? undefined : (JSON.parse(carried) as BookSnapshot), input.checkpointEvery);
        token.start(checkpoints);
      }
      token.apply(marketRowOf(staged), checkpoints);
    });
    token?.finish(checkpoints);
    // Tokens quiet this hour keep their book too, so no reconstruction has to read the hour before.
    for (const [assetId, book] of input.startBooks) checkpoints.write(`${assetId}\t0\t${book}\n`);
    writer.close();
    checkpoints.close();
    await connection.run(
      `COPY (SELECT * FROM read_csv('${sqlText(checkpointLines)}', auto_detect=false, delim='\t', quote='', escape='', header=false,
          columns={'asset_id':'VARCHAR','row':'BIGINT','snapshot':'VARCHAR'}) ORDER BY asset_id, row)
       TO '${sqlText(input.checkpointPath)}' (FORMAT parquet, COMPRESSION zstd)`,
    );
    result.peakRssBytes = process.resourceUsage().maxRSS * 1024;
    return result;
  } finally {
    connection.closeSync();
    instance.closeSync();
    rmSync(sorted, { force: true });
    rmSync(checkpointLines, { force: true });
  }
}

/** One token's rows of the hour, in file order: its book replayed from the carried-in snapshot. */
class TokenRun {
  private readonly state: BookState;
  private ordinal = 0;
  private lastCheckpoint = -1;

  constructor(
    readonly assetId: string,
    private readonly carried: BookSnapshot | undefined,
    private readonly every: number,
  ) {
    this.state = carried ? BookState.from(carried) : new BookState(assetId);
  }

  start(out: LineWriter): void {
    if (this.carried) this.checkpoint(out);
  }

  apply(row: Parameters<BookState['apply']>[0], out: LineWriter): void {
    this.state.apply(row);
    this.ordinal += 1;
    if (this.ordinal % this.every === 0 && this.state.known) this.checkpoint(out);
  }

  /** The book after the token's last row of the hour: the next hour's carried-in book. */
  finish(out: LineWriter): void {
    if (this.state.known && this.lastCheckpoint !== this.ordinal) this.checkpoint(out);
  }

  /** A checkpoint line (tab-separated: a snapshot's JSON text holds no tab or newline): `row` counts the token's rows of the hour the snapshot reflects. */
  private checkpoint(out: LineWriter): void {
    this.lastCheckpoint = this.ordinal;
    out.write(`${this.assetId}\t${this.ordinal}\t${JSON.stringify(this.state.snapshot())}\n`);
  }
}

/** pmxt's row order, recording (or staging) order breaking ties: the order staged rows are written to the file in. */
export const fileOrder = 'market, asset_id, received, seq';

export function sqlText(value: string): string {
  return value.replaceAll("'", "''");
}
