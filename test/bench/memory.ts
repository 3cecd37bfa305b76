/** A process's memory once garbage is collected (run with --expose-gc), so it counts what is kept, not what is yet to be freed. */
export interface SettledMemory {
  rss: number;
  heapUsed: number;
  /** Memory outside the JavaScript heap held by JavaScript objects; includes `arrayBuffers`. */
  external: number;
  arrayBuffers: number;
}

export function settledMemory(): SettledMemory {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc: without a collection the figures count garbage');
  gc();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, external, arrayBuffers };
}
