import type { A } from './a.js';

/** Refers back to a.ts by type only: erased at run time, so only the check of every import sees this cycle. */
export interface C {
  a?: A;
}
