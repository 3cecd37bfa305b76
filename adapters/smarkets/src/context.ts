import type { Clock } from '@predgate/core';
import type { SmarketsApi } from './api/client.js';
import type { SessionTokens } from './auth/session.js';

/** What every call of one adapter instance shares: reads and account calls take it first. */
export interface SmarketsContext {
  api: SmarketsApi;
  clock: Clock;
  /** The account's session, when the caller brought credentials. */
  sessions: SessionTokens | undefined;
}
