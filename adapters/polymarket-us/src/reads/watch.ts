import { PredgateError, invalidArgument } from '@predgate/core';
import { venueId } from '../venue.js';
import type { PolymarketUsContext } from '../context.js';
import { partsOfOutcomeId } from '../ids.js';

/** A streamed outcome: `<slug>:long|short` (the side picks the book, as in fetchOrderBook). */
function streamed(outcomeId: string) {
  const parts = partsOfOutcomeId(outcomeId);
  if (!parts)
    throw invalidArgument('outcomeId', `${outcomeId.slice(0, 100)} is not an outcome id of ${venueId}: give <market slug>:long or <market slug>:short`);
  return parts;
}

/** The live book of `<slug>:long|short` over the markets websocket: the long side's book, mirrored for short. */
export function watchOrderBook(ctx: PolymarketUsContext, outcomeId: string) {
  const { slug, side } = streamed(outcomeId);
  return ctx.stream.watchOrderBook(slug, side);
}

/** Live prints of `<slug>:long|short` (`SUBSCRIPTION_TYPE_TRADE`), priced on the outcome's side. */
export function watchTrades(ctx: PolymarketUsContext, outcomeId: string, address?: string) {
  if (address !== undefined)
    throw new PredgateError('NOT_SUPPORTED', `${venueId}: watching a wallet's trades is not supported; watch the outcome`, { exchange: venueId });
  const { slug, side } = streamed(outcomeId);
  return ctx.stream.watchTrades(slug, side);
}
