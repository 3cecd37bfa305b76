import type { Clock, Credentials } from '@predgate/core';
import type { LimitlessApi, Signed } from './api/client.js';
import type { OutcomeIds } from './ids.js';
import type { LimitlessStream } from './streams/market-stream.js';

/** What every call of one adapter instance shares (an instance serves one set of credentials): reads and account calls take it first. */
export interface LimitlessContext {
  api: LimitlessApi;
  clock: Clock;
  credentials: Credentials | undefined;
  /** Signs an account request; refuses one without `apiKey`. */
  sign: Signed;
  stream: LimitlessStream;
  /** Outcome (token) id → its market's slug and side, from every market read: books are keyed by slug. */
  bookOfToken: Map<string, { slug: string; side: 'yes' | 'no' }>;
  /** Market slug → its outcome ids, YES then NO: positions and the activity log name outcomes by index only. */
  outcomesOfMarket: Map<string, OutcomeIds>;
  /** Order salts: random, fixed in tests (so a built order can be compared with a placed one). */
  salt: () => bigint;
  /** Order id → market slug, from every order this instance placed or listed. */
  marketOfOrder: Map<string, string>;
}
