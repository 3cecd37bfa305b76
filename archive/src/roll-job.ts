import { existsSync } from 'node:fs';
import { HourIndex } from './hour-index.js';
import { inFileOrder, stageHour } from './import-staging.js';
import { stageJournal } from './journal.js';
import { rollStaged } from './roller.js';
import type { RollResult } from './roller.js';

/**
 * One hour to roll: a closed hour's journal, or (`reindex`) a published
 * hour's file rolled again for the index it lacks (an hour rolled before
 * hours had one); and where the staged rows, the files and the scratch space go.
 */
export interface RollJob {
  journalPath?: string;
  reindex?: { file: string; start: number; previousIndex: string };
  stagedPath: string;
  dataPath: string;
  checkpointPath: string;
  workDir: string;
  checkpointEvery: number;
  memoryLimit: string;
}

/** Stages the hour's rows on disk, then sorts and writes them (see `rollStaged`). */
export async function rollJob(job: RollJob): Promise<RollResult> {
  if (job.reindex) return reindexJob(job, job.reindex);
  const startBooks = stageJournal(job.journalPath!, job.stagedPath);
  return rollStaged({ ...job, staged: job.stagedPath, startBooks });
}

/** The published file's rows of its hour, staged as an import stages them, each token's book carried in from the hour before's index when there is one. */
async function reindexJob(job: RollJob, reindex: NonNullable<RollJob['reindex']>): Promise<RollResult> {
  await stageHour({ path: reindex.file, start: reindex.start, staged: job.stagedPath, memoryLimit: job.memoryLimit, spillDir: job.workDir });
  let startBooks = new Map<string, string>();
  if (existsSync(reindex.previousIndex)) {
    const previous = HourIndex.open(reindex.previousIndex);
    try {
      startBooks = new Map(previous.lastBooks());
    } finally {
      previous.close();
    }
  }
  return rollStaged({ ...job, staged: job.stagedPath, presorted: inFileOrder(job.stagedPath), startBooks });
}
