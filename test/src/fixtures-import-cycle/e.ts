export type { D } from './d.js';

export interface E {
  name: string;
}
