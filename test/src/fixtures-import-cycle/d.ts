import { type E } from './e.js';

/** Names e.ts's type inline (`import { type E }`); e.ts re-exports this one's by `export type`: a cycle of types. */
export interface D {
  e?: E;
}
