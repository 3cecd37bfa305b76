import { collectingDrift, marketListPredicate, notSupported } from '@predgate/core';
import type { Market, MarketFetchParams } from '@predgate/core';
import type { MetaculusContext } from '../context.js';
import { defaultLimit, selectEvents } from './events.js';

/** Markets are the questions of the posts selected; a `marketId` (`<post>` or `<post>:<question>`) looks its post up. */
export async function fetchMarkets(ctx: MetaculusContext, params: MarketFetchParams = {}): Promise<Market[]> {
  if (params.outcomeId !== undefined) {
    throw notSupported('fetchMarkets', 'outcome ids name questions, which the API does not look up; give the marketId instead');
  }
  const postId = params.marketId?.split(':')[0];
  const { filter: _marketFilter, ...listParams } = params;
  const { value: events, reports } = await collectingDrift(() =>
    selectEvents(ctx, {
      ...listParams,
      ...(postId === undefined ? {} : { eventId: postId }),
      limit: params.marketId ? 1 : params.limit,
    }),
  );
  const keep = marketListPredicate(params);
  const markets = events
    .flatMap((event) => event.markets)
    .filter((market) => (params.marketId === undefined || market.marketId === params.marketId) && (!keep || keep(market)));
  // A sub-question looked up by id that its post's answer left out as unreadable: its drift error, naming the field.
  const questionId = params.marketId?.split(':')[1];
  const unreadable = questionId === undefined || markets.length > 0 ? undefined : reports.find((report) => report.detail?.item === questionId);
  if (unreadable) throw unreadable;
  return markets.slice(0, params.limit ?? defaultLimit);
}
