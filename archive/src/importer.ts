import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { HourStore } from './hour-store.js';
import { hourKey } from './hours.js';
import { HourIndex } from './hour-index.js';
import { hoursIn, inFileOrder, stageHour } from './import-staging.js';
import { rollStaged } from './roller.js';

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

const hourMs = 3_600_000;

/**
 * Imports hourly files in pmxt's v2 format, in memory that does not grow with
 * the file: each hour's rows are staged on disk a row group at a time (see
 * `stageHour`), then rolled like a recorded hour, written one row group at a
 * time, each token's book carried in from the hour before. A file already in
 * pmxt's order (market, asset_id, timestamp_received) is rolled as it is; any
 * other is sorted out of core first.
 */
export async function importHourFiles(archive: HourStore, paths: string[], options: ImportOptions): Promise<ImportReport> {
  const report: ImportReport = { files: paths.length, hours: [], rows: 0, duplicates: 0 };
  for (const path of paths) {
    for (const { start, rows } of await hoursIn(path, options.memoryLimit)) {
      if (options.isRecording(start)) {
        throw new Error(`${path} holds rows of ${hourKey(start)}, an hour still being recorded; import it once that hour is rolled`);
      }
      const counted = await importHour(archive, path, { start, rows }, options);
      report.rows += counted.added;
      report.duplicates += counted.duplicates;
      report.hours.push(hourKey(start));
    }
  }
  return report;
}

/** Imports the `rows` rows the file holds of the hour at `start` (counted by `hoursIn`). */
async function importHour(
  archive: HourStore,
  path: string,
  { start, rows }: { start: number; rows: number },
  options: ImportOptions,
): Promise<{ added: number; duplicates: number }> {
  const paths = archive.hourPaths(start);
  rmSync(paths.workDir, { recursive: true, force: true });
  mkdirSync(join(paths.workDir, 'duckdb'), { recursive: true });
  try {
    const held = archive.factsFor(start);
    const staged = join(paths.workDir, 'staged.tsv');
    await stageHour({
      path,
      start,
      ...(held ? { held: paths.data } : {}),
      staged,
      memoryLimit: options.memoryLimit,
      spillDir: join(paths.workDir, 'duckdb'),
    });
    const result = await rollStaged({
      staged,
      presorted: inFileOrder(staged),
      startBooks: carriedBooks(archive, start),
      dataPath: paths.dataTemp,
      checkpointPath: paths.checkpointsTemp,
      workDir: paths.workDir,
      checkpointEvery: options.checkpointEvery,
      memoryLimit: options.memoryLimit,
    });
    await archive.publish(start, paths, result);
    const added = result.rows - (held?.rows ?? 0);
    return { added, duplicates: rows - added };
  } finally {
    rmSync(paths.workDir, { recursive: true, force: true });
  }
}

/** Each token's last book of the hour before, where the hour's replay starts. */
function carriedBooks(archive: HourStore, start: number): Map<string, string> {
  const previous = archive.checkpointPath(start - hourMs);
  if (!archive.factsFor(start - hourMs) || !existsSync(previous)) return new Map();
  const index = HourIndex.open(previous);
  try {
    return new Map(index.lastBooks());
  } finally {
    index.close();
  }
}
