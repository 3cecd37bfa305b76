import type { Clock } from '@predgate/core';
import type { PolymarketUsApi } from './api/client.js';
import type { PolymarketUsStream } from './streams/market-stream.js';

export const venueId = 'polymarket_us';

/** The API key's id (`apiKey`) and its base64 Ed25519 secret (`privateKey`, or `apiSecret`). */
export const credentialMembers = ['apiKey', 'privateKey'];

/** Events and markets a list call answers when the caller names no limit. */
export const defaultLimit = 100;

/** What every call of one adapter instance shares: reads and account calls take it first. */
export interface PolymarketUsContext {
  api: PolymarketUsApi;
  clock: Clock;
  stream: PolymarketUsStream;
}
