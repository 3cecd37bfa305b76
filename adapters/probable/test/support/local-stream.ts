import { fixedClock } from '@predgate/core';
import type { LocalSocketVenue } from '@predgate/core/testkit';
import { ProbableStream } from '../../src/streams/book-stream.js';

/** A stream dialling a local venue at Probable's path, with short ping and redial times. */
export function localProbableStream(venue: LocalSocketVenue): ProbableStream {
  return new ProbableStream({
    url: `${venue.url}/public/api/v1`,
    chainId: 56,
    venue: 'probable',
    clock: fixedClock(Date.UTC(2026, 10, 26)),
    pingIntervalMs: 20,
    backoff: { initialMs: 5, maxMs: 10 },
  });
}
