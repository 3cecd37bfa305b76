import { PredgateError } from '@predgate/core';
import { venueId } from '../venue.js';
import type { GeminiContext } from '../context.js';

/** The partial-depth stream of one public connection per adapter instance. */
export function watchOrderBook(ctx: GeminiContext, outcomeId: string) {
  return ctx.stream.watchOrderBook(outcomeId);
}

export function watchTrades(ctx: GeminiContext, outcomeId: string, address?: string) {
  if (address !== undefined)
    throw new PredgateError('NOT_SUPPORTED', `${venueId}: watching a wallet's trades is not supported; watch the outcome`, { exchange: venueId });
  return ctx.stream.watchTrades(outcomeId);
}
