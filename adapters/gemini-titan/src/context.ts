import type { Clock } from '@predgate/core';
import type { GeminiApi } from './api/client.js';
import type { GeminiStream } from './streams/market-stream.js';

/** What every call of one adapter instance shares: reads and account calls take it first. */
export interface GeminiContext {
  api: GeminiApi;
  clock: Clock;
  stream: GeminiStream;
  /** Contracts are looked up through their event; listing fills this map (symbol → event ticker) so a later lookup costs one call. */
  eventOfSymbol: Map<string, string>;
}
