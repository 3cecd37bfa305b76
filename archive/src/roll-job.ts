import { stageJournal } from './journal.js';
import { rollStaged } from './roller.js';
import type { RollResult } from './roller.js';

/** One closed hour to roll: its journal, and where the staged rows, the files and the scratch space go. */
export interface RollJob {
  journalPath: string;
  stagedPath: string;
  dataPath: string;
  checkpointPath: string;
  workDir: string;
  checkpointEvery: number;
  memoryLimit: string;
}

/** Stages the journal's rows on disk, then sorts and writes them (see `rollStaged`). */
export async function rollJob(job: RollJob): Promise<RollResult> {
  const startBooks = stageJournal(job.journalPath, job.stagedPath);
  return rollStaged({ ...job, staged: job.stagedPath, startBooks });
}
