import type { Credentials } from '@predgate/core';
import type { RainApi } from './api/client.js';
import type { RainStream } from './streams/pool-stream.js';

/** What every call of one adapter instance shares. */
export interface RainContext {
  api: RainApi;
  credentials: Credentials | undefined;
  /** The operator's The Graph API key, used when the caller sends none. */
  subgraphApiKey: string | undefined;
  /** The live pool events, one Socket.IO connection per instance. */
  stream: RainStream;
}
