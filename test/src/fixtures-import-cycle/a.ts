import { b } from './b.js';
import type { C } from './c.js';

export const a = (): string => b();
export interface A {
  c?: C;
}
