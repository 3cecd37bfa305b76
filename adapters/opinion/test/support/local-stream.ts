import { PredgateError, fixedClock } from '@predgate/core';
import type { LocalSocketVenue } from '@predgate/core/testkit';
import { OpinionStream } from '../../src/streams/market-stream.js';
import type { OpinionStreamOptions } from '../../src/streams/market-stream.js';

/**
 * A stream dialling a local venue with the key `read-key` and short ping and
 * redial times: the given tokens are those of `marketId`, any other id is
 * not found, and books are read with `snapshot`.
 */
export function localOpinionStream(
  venue: LocalSocketVenue,
  market: { marketId: string; tokens: string[] },
  overrides: Partial<OpinionStreamOptions> & Pick<OpinionStreamOptions, 'snapshot'>,
): OpinionStream {
  return new OpinionStream({
    url: venue.url,
    venue: 'opinion',
    apiKey: 'read-key',
    clock: fixedClock(Date.UTC(2026, 10, 26)),
    pingIntervalMs: 20,
    backoff: { initialMs: 5, maxMs: 10 },
    async locate(outcomeId) {
      if (market.tokens.includes(outcomeId)) return { tokenId: outcomeId, marketId: market.marketId };
      throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome not found on opinion: ${outcomeId}`, { exchange: 'opinion', retryable: false });
    },
    ...overrides,
  });
}
