import { setTimeout as sleep } from 'node:timers/promises';

/** A process's memory once garbage is collected (run with --expose-gc), so it counts what is kept, not what is yet to be freed. */
export interface SettledMemory {
  rss: number;
  heapUsed: number;
  /** Memory outside the JavaScript heap held by JavaScript objects; includes `arrayBuffers`. */
  external: number;
  arrayBuffers: number;
}

/**
 * Collects garbage, then waits until the resident size stops falling: V8
 * hands the pages a collection freed back to the system from a background
 * thread, a few hundred milliseconds later, so a figure read at once counts
 * hundreds of megabytes the process no longer holds.
 */
export async function settledMemory(): Promise<SettledMemory> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc: without a collection the figures count garbage');
  gc();
  let rss = process.memoryUsage.rss();
  for (let waited = 0; waited < 5_000; waited += 250) {
    await sleep(250);
    const now = process.memoryUsage.rss();
    if (now >= rss) break;
    rss = now;
  }
  const { heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, external, arrayBuffers };
}
