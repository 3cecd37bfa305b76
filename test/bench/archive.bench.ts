import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
// The bench package does not depend on the archive; its sources are read in place, as the gateway reads them.
import { archiveProcessFlags, recordingProcessFlags } from '../../archive/src/child-process.js';
import { PolymarketArchive } from '../../archive/src/index.js';
import { queryFigures, round } from './archive-queries.js';
import type { ReadFigures } from './archive-queries.js';

/**
 * One synthetic hour of Polymarket's market channel at real volume, through
 * the archive as the recorder drives it. Facts it is scaled to: pmxt's v2
 * hours hold 24-75 million rows (an audited NBA hour: 75,587,694 rows in
 * 436 MB, 5.8 B/row; the smallest listed file 7.2 B/row), 99.6% of them
 * `price_change` rows (a message carries both tokens of its market, so about
 * two rows a message), 0.27% `book`, 0.09% `last_trade_price`, a few
 * `tick_size_change`; pmxt subscribes to every live asset. pmxt's v2 overview
 * (archive.pmxt.dev/docs/v2-data-overview) lists about 31 GB over 94 hourly
 * files, 100-400 MB each, price_change about 99.7% of rows: at 6-7 B/row an
 * average hour is about 50 million rows, so 25 million is a quiet hour. `ARCHIVE_BENCH_ROWS`
 * (25,000,000) and `ARCHIVE_BENCH_TOKENS` (40,000: about 20,000 live binary
 * markets, an assumption) set the size; a few markets take most of the traffic.
 */
export interface ArchiveFigures extends ReadFigures {
  openHour: ReadFigures;
  rows: number;
  messages: number;
  tokens: number;
  ingestMessagesPerSecondPerCore: number;
  /** Percent of recording's CPU time spent in the kernel (the journal's writes and syncs). */
  ingestKernelPercent: number;
  recorderPeakRssMiB: number;
  rollSeconds: number;
  rollPeakRssMiB: number;
  rollEventLoopDelayP99Ms: number;
  rollEventLoopDelayMaxMs: number;
  fileBytes: number;
  bytesPerRow: number;
  indexBytes: number;
  indexBytesPerRow: number;
  rowGroups: number;
  rowsPerGroup: number;
  importSeconds: number;
  importPeakRssMiB: number;
  /** Books read back from the imported hour and compared with the file's own rows replayed. */
  importBooksChecked: number;
  importBooksDiffering: number;
  uptime: string;
}

/**
 * `ARCHIVE_BENCH_KEEP=<dir>` records into that folder and keeps it, so that
 * `archive-reads.ts <dir>` can measure the reads on that hour again alone.
 */
export async function benchArchive(): Promise<{ summary: string; details: ArchiveFigures }> {
  const targetRows = Number(process.env.ARCHIVE_BENCH_ROWS ?? 25_000_000);
  const tokens = Number(process.env.ARCHIVE_BENCH_TOKENS ?? 40_000);
  const keep = process.env.ARCHIVE_BENCH_KEEP;
  const dir = keep ? (mkdirSync(keep, { recursive: true }), keep) : mkdtempSync(join(tmpdir(), 'archive-bench-'));
  try {
    // Recording and the roll it starts run in a process with the recording process's flags, as `predgate serve` runs it.
    const recorded = await runChild<Recorded>('archive-record.ts', [dir, String(targetRows), String(tokens)], recordingProcessFlags);
    const { rows, messages } = recorded;
    const ingest = Math.round(messages / (recorded.cpuMicros / 1e6));
    progress(`recorded ${rows} rows, ${messages} messages: ${ingest} msg/s per core, peak RSS ${mib(recorded.recordPeakRssBytes)} MiB`);
    const open = recorded.openHour;
    progress(
      `open hour: since p50/p95 ${open.sinceP50Ms}/${open.sinceP95Ms} ms (CPU ${open.sinceCpuP50Ms}/${open.sinceCpuP95Ms} ms); range p50/p95 ${open.range1000P50Ms}/${open.range1000P95Ms} ms`,
    );
    const { file, indexBytes } = await publishedHour(dir);
    const fileBytes = statSync(file).size;
    const groups = await rowGroups(file);
    progress(
      `rolled in ${round(recorded.rollMs / 1000)} s, roll RSS ${mib(recorded.rollPeakRssBytes)} MiB, loop delay p99 ${round(recorded.delayP99Ms)} ms, ${round(fileBytes / recorded.rollRows)} B/row`,
    );
    const reads = await readFigures(dir, tokens);
    const imported = await runChild<{ ms: number; maxRssBytes: number; booksChecked: number; booksDiffering: number }>(
      'archive-import.ts',
      [file, join(dir, 'imported')],
      archiveProcessFlags,
    );
    const figures: ArchiveFigures = {
      rows,
      messages,
      tokens,
      ingestMessagesPerSecondPerCore: ingest,
      ingestKernelPercent: Math.round((100 * recorded.systemMicros) / recorded.cpuMicros),
      recorderPeakRssMiB: mib(recorded.recordPeakRssBytes),
      rollSeconds: round(recorded.rollMs / 1000),
      rollPeakRssMiB: mib(recorded.rollPeakRssBytes),
      rollEventLoopDelayP99Ms: round(recorded.delayP99Ms),
      rollEventLoopDelayMaxMs: round(recorded.delayMaxMs),
      fileBytes,
      bytesPerRow: round(fileBytes / recorded.rollRows),
      indexBytes,
      indexBytesPerRow: round(indexBytes / recorded.rollRows),
      rowGroups: groups.count,
      rowsPerGroup: groups.largest,
      ...reads,
      openHour: open,
      importSeconds: round(imported.ms / 1000),
      importPeakRssMiB: mib(imported.maxRssBytes),
      importBooksChecked: imported.booksChecked,
      importBooksDiffering: imported.booksDiffering,
      uptime: execFileSync('uptime').toString().trim(),
    };
    const summary = [
      `One synthetic hour: ${messages.toLocaleString('en')} messages, ${rows.toLocaleString('en')} rows over ${tokens.toLocaleString('en')} tokens. Machine load: \`${figures.uptime}\`.`,
      '',
      '| figure | value | goal |',
      '|---|---|---|',
      `| recording: parse + journal + books, messages/s per core (CPU time, user and kernel) | ${figures.ingestMessagesPerSecondPerCore.toLocaleString('en')} (kernel ${figures.ingestKernelPercent}%) | ≥ 50,000 |`,
      `| recording process peak RSS (journal on disk) | ${figures.recorderPeakRssMiB} MiB | ≤ 1,536 MiB |`,
      `| roll (child process: DuckDB sort, 512 MB limit, then the pmxt writer) | ${figures.rollSeconds} s, peak RSS ${figures.rollPeakRssMiB} MiB | ≤ 1,536 MiB |`,
      `| event-loop delay of the recording process during the roll, p99 / max | ${figures.rollEventLoopDelayP99Ms} / ${figures.rollEventLoopDelayMaxMs} ms | p99 ≤ 50 ms |`,
      `| file | ${(fileBytes / 2 ** 20).toFixed(1)} MiB, ${figures.bytesPerRow} B/row (pmxt's real files 5.8-7.2), ${figures.rowGroups} row groups of up to ${figures.rowsPerGroup.toLocaleString('en')} rows | ≤ 8 B/row |`,
      `| the hour's index beside the file (checkpoints, where each token's rows are; not part of pmxt's format) | ${(indexBytes / 2 ** 20).toFixed(1)} MiB, ${figures.indexBytesPerRow} B/row | |`,
      `| \`since\` (one book), p50 / p95, 1,000 random tokens and moments, fresh reader | ${figures.sinceP50Ms} / ${figures.sinceP95Ms} ms (CPU time ${figures.sinceCpuP50Ms} / ${figures.sinceCpuP95Ms} ms) | p95 ≤ 10 ms |`,
      `| 1000-book range, p50 / p95 (${figures.rangeBooksReturned} books on average) | ${figures.range1000P50Ms} / ${figures.range1000P95Ms} ms | p95 ≤ 250 ms |`,
      `| the same \`since\` queries of the open hour (its journal, in the recording process, before the roll), p50 / p95 | ${open.sinceP50Ms} / ${open.sinceP95Ms} ms (CPU time ${open.sinceCpuP50Ms} / ${open.sinceCpuP95Ms} ms) | p95 ≤ 10 ms |`,
      `| the same ranges of the open hour, p50 / p95 (${open.rangeBooksReturned} books on average) | ${open.range1000P50Ms} / ${open.range1000P95Ms} ms | p95 ≤ 250 ms |`,
      `| importing that file into an empty archive (own process) | ${figures.importSeconds} s, peak RSS ${figures.importPeakRssMiB} MiB | ≤ 1,536 MiB |`,
      `| books read back from the imported hour against the file's rows replayed | ${figures.importBooksChecked} checked, ${figures.importBooksDiffering} differing | 0 differing |`,
    ].join('\n');
    return { summary, details: figures };
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

/** The published file of a recorded archive and the size of its hour index. */
async function publishedHour(dir: string): Promise<{ file: string; indexBytes: number }> {
  const archive = await PolymarketArchive.open({ dir, mode: 'read' });
  try {
    const [published] = archive.listFiles();
    return { file: join(dir, 'files', published!.name), indexBytes: statSync(archive.checkpointPath(Date.parse(published!.hour))).size };
  } finally {
    await archive.close();
  }
}

/** `since` and range queries on a recorded hour, each series from a fresh reader, as the gateway opens the archive: nothing cached. */
export async function readFigures(dir: string, tokens: number): Promise<ReadFigures> {
  const reader = await PolymarketArchive.open({ dir, mode: 'read' });
  const figures = await queryFigures(reader, tokens);
  await reader.close();
  progress(
    `since p50/p95 ${figures.sinceP50Ms}/${figures.sinceP95Ms} ms (CPU ${figures.sinceCpuP50Ms}/${figures.sinceCpuP95Ms} ms); range p50/p95 ${figures.range1000P50Ms}/${figures.range1000P95Ms} ms`,
  );
  return figures;
}

interface Recorded {
  /** The same queries as on the published hour, asked of the open hour's journal before the roll. */
  openHour: ReadFigures;
  rows: number;
  messages: number;
  cpuMicros: number;
  systemMicros: number;
  recordPeakRssBytes: number;
  rollMs: number;
  rollRows: number;
  rollPeakRssBytes: number;
  delayP99Ms: number;
  delayMaxMs: number;
}

/** Runs one of the bench's scripts in a process of its own (so its peak memory is its own) and reads the JSON it prints. */
function runChild<T>(script: string, args: string[], flags: string[]): Promise<T> {
  const child = spawn(process.execPath, ['--conditions=predgate-source', '--import', 'tsx', ...flags, join(import.meta.dirname, script), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(output) as T) : reject(new Error(`${script} exited with ${code}`))));
  });
}

async function rowGroups(file: string): Promise<{ count: number; largest: number }> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(
      `SELECT count(*) AS n, max(rows) AS largest FROM (SELECT row_group_id, any_value(row_group_num_rows) AS rows FROM parquet_metadata('${file}') GROUP BY row_group_id)`,
    );
    const [record] = reader.getRowObjectsJS();
    return { count: Number(record!.n), largest: Number(record!.largest) };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Figures as they are measured, with the machine's load: a long run that is stopped still leaves them. */
function progress(line: string): void {
  process.stderr.write(`[${new Date().toISOString()}] ${line} (${execFileSync('uptime').toString().trim()})\n`);
}

function mib(bytes: number): number {
  return Math.round(bytes / 2 ** 20);
}
