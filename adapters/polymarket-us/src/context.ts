import type { Clock } from '@predgate/core';
import type { PolymarketUsApi } from './api/client.js';
import type { PolymarketUsStream } from './streams/market-stream.js';

/** What every call of one adapter instance shares: reads and account calls take it first. */
export interface PolymarketUsContext {
  api: PolymarketUsApi;
  clock: Clock;
  stream: PolymarketUsStream;
}
