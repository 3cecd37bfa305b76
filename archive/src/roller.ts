import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { BookState } from '@predgate/adapter-polymarket/streams';
import type { BookSnapshot } from '@predgate/adapter-polymarket/streams';
import { HourFileWriter } from './hour-file.js';
import { HourIndexWriter } from './hour-index.js';
import { forEachLine } from './lines.js';
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
  /** Where the data file and the hour's index (checkpoints and each token's rows, see hour-index.ts) are written (temporary names; the caller publishes them). */
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
    const index = new HourIndexWriter(input.checkpointPath);
    const result: RollResult = { rows: 0 };
    let token: TokenRun | undefined;
    // Synchronous: this process has nothing else to do meanwhile, and a promise per row costs more than the row.
    forEachLine(sorted, (line) => {
      const staged = parseStagedLine(line);
      writer.add(staged);
      if (token?.assetId !== staged.assetId) {
        token?.finish(index);
        const carried = input.startBooks.get(staged.assetId);
        input.startBooks.delete(staged.assetId);
        token = new TokenRun(
          staged.assetId,
          staged.market,
          result.rows,
          carried === undefined ? undefined : (JSON.parse(carried) as BookSnapshot),
          input.checkpointEvery,
        );
        token.start(index);
      }
      result.rows += 1;
      result.lastReceivedAt = Math.max(result.lastReceivedAt ?? staged.receivedAt, staged.receivedAt);
      token.apply(marketRowOf(staged), index);
    });
    token?.finish(index);
    // Tokens quiet this hour keep their book too, so no reconstruction has to read the hour before.
    for (const [assetId, book] of input.startBooks) index.checkpoint(assetId, 0, JSON.parse(book) as BookSnapshot);
    writer.close();
    index.close();
    result.peakRssBytes = process.resourceUsage().maxRSS * 1024;
    return result;
  } finally {
    connection.closeSync();
    instance.closeSync();
    rmSync(sorted, { force: true });
  }
}

/** One token's rows of the hour, in file order: its book replayed from the carried-in snapshot. */
class TokenRun {
  private readonly state: BookState;
  private ordinal = 0;
  private lastCheckpoint = -1;

  constructor(
    readonly assetId: string,
    private readonly market: string,
    /** The token's first row in the file. */
    private readonly firstRow: number,
    private readonly carried: BookSnapshot | undefined,
    private readonly every: number,
  ) {
    this.state = carried ? BookState.from(carried) : new BookState(assetId);
  }

  start(index: HourIndexWriter): void {
    if (this.carried) this.checkpoint(index);
  }

  apply(row: Parameters<BookState['apply']>[0], index: HourIndexWriter): void {
    this.state.apply(row);
    this.ordinal += 1;
    if (this.ordinal % this.every === 0 && this.state.known) this.checkpoint(index);
  }

  /** The book after the token's last row of the hour (the next hour's carried-in book), and where its rows are. */
  finish(index: HourIndexWriter): void {
    if (this.state.known && this.lastCheckpoint !== this.ordinal) this.checkpoint(index);
    index.rowsOf(this.assetId, this.market, this.firstRow, this.ordinal);
  }

  /** `row` counts the token's rows of the hour the snapshot reflects. */
  private checkpoint(index: HourIndexWriter): void {
    this.lastCheckpoint = this.ordinal;
    index.checkpoint(this.assetId, this.ordinal, this.state.snapshot());
  }
}

/** pmxt's row order, recording (or staging) order breaking ties: the order staged rows are written to the file in. */
export const fileOrder = 'market, asset_id, received, seq';

export function sqlText(value: string): string {
  return value.replaceAll("'", "''");
}
