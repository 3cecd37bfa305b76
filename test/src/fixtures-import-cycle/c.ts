import type { A } from './a.js';

/** Refers back to a.ts by type only: erased at run time, so no cycle. */
export interface C {
  a?: A;
}
