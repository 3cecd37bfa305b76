import { a } from './a.js';

/** a.ts imports this module at run time, and this one a.ts: the cycle the check must see. */
export const b = (): string => typeof a;
