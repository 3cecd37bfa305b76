import { PredgateError, bucketCandles, createFeed, feedError, invalidArgument, resolutionMs } from '@predgate/core';
import type { Feed, OHLCVParams, PriceCandle, PricePoint, Trade, TradesParams } from '@predgate/core';
import { venueId } from '../venue.js';
import type { RainContext } from '../context.js';
import { partsOf } from '../ids.js';
import { choiceOf, restDecimals } from '../normalize/pools.js';
import { tradesOf } from '../normalize/trades.js';

/* An option's history from the subgraph, and its live prints from the venue's Socket.IO pool events. */

const defaultLimit = 20;
/** Subgraph rows per entity for one call (The Graph's cap is 1000). */
export const maxRows = 1000;

export async function fetchTrades(ctx: RainContext, outcomeId: string, params: TradesParams = {}): Promise<Trade[]> {
  const limit = params.limit ?? defaultLimit;
  const trades = await fills(ctx, outcomeId, Math.min(limit, maxRows), params.start, params.end);
  return trades.slice(0, limit).map(({ volume: _volume, ...trade }) => trade);
}

export async function fetchOHLCV(ctx: RainContext, outcomeId: string, params: OHLCVParams): Promise<PriceCandle[]> {
  const stepMs = resolutionMs(params.resolution);
  const trades = await fills(ctx, outcomeId, maxRows, params.start, params.end);
  const points: PricePoint[] = trades.map((trade) => ({ timestamp: trade.timestamp, price: trade.price, volume: trade.volume }));
  const candles = bucketCandles(points, stepMs);
  return params.limit === undefined ? candles : candles.slice(-params.limit);
}

/**
 * Live prints of one option from the venue's Socket.IO pool events
 * (`enter-option/{poolId}`, `order-filled/{poolId}`), priced as
 * `fetchTrades` prices the subgraph's rows; the id is checked (and the
 * pool read for its token decimals) as `fetchTrades` checks it.
 */
export function watchTrades(ctx: RainContext, outcomeId: string, address?: string): Feed<Trade[]> {
  if (address !== undefined)
    throw new PredgateError('NOT_SUPPORTED', `${venueId}: watching a wallet's trades is not supported; watch the outcome`, { exchange: venueId });
  return createFeed<Trade[]>((emit) => {
    let detach: (() => void) | undefined;
    let stopped = false;
    optionOf(ctx, outcomeId).then(
      ({ pool, choice }) => {
        if (!stopped)
          detach = ctx.stream.attach({ poolId: pool._id, choice, decimals: restDecimals(pool), outcomeId: `${venueId}:${pool._id}:${choice}` }, emit);
      },
      (error: unknown) => {
        if (!stopped) emit.error(feedError(error, venueId));
      },
    );
    return () => {
      stopped = true;
      detach?.();
    };
  });
}

/** The The Graph API key: the caller's own, else the operator's. */
export function subgraphKey(ctx: RainContext) {
  const key = ctx.credentials?.apiKey ?? ctx.subgraphApiKey;
  if (!key) {
    throw new PredgateError(
      'AUTHENTICATION_ERROR',
      `${venueId}: trades and candles come from Rain's subgraph on The Graph's gateway, which needs an API key: send credentials.apiKey or configure subgraphApiKey`,
      { detail: { required: ['apiKey'], service: 'subgraph' } },
    );
  }
  return { key };
}

/** The pool and option an outcome id names. */
async function optionOf(ctx: RainContext, outcomeId: string) {
  const parts = partsOf(outcomeId);
  if (parts?.choice === undefined) {
    throw invalidArgument('outcomeId', `${venueId} outcome ids are rain:<pool id>:<choice index>, such as rain:6aa7cae7dffaf5aa153f7d87:0`);
  }
  if (parts.no)
    throw invalidArgument('outcomeId', `${venueId} has no "Not X" shares: every outcome is one of the pool's options, rain:<pool id>:<choice index>`);
  const pool = await ctx.api.pool(parts.poolId).catch((error: unknown) => {
    // What was named is an outcome: a pool the venue does not know means that outcome is unknown, as every venue says it.
    if (error instanceof PredgateError && error.code === 'MARKET_NOT_FOUND') throw outcomeNotFound(outcomeId, error.message);
    throw error;
  });
  const position = pool.options.findIndex((_, at) => choiceOf(pool, at) === parts.choice);
  if (position === -1) {
    throw outcomeNotFound(outcomeId, `${venueId} pool ${pool._id} has no option ${parts.choice}`);
  }
  return { pool, choice: parts.choice };
}

function outcomeNotFound(outcomeId: string, message: string) {
  return new PredgateError('OUTCOME_NOT_FOUND', message, { exchange: venueId, detail: { outcomeId: outcomeId.slice(0, 80) } });
}

/** An option's fills (AMM buys and limit-order fills), newest first, in the pool's collateral. */
async function fills(ctx: RainContext, outcomeId: string, first: number, start?: Date, end?: Date) {
  const subgraph = subgraphKey(ctx);
  const { pool, choice } = await optionOf(ctx, outcomeId);
  if (!pool.contractAddress) return [];
  const rows = await ctx.api.trades(subgraph, pool.contractAddress, choice, {
    first,
    ...(start ? { since: Math.floor(start.getTime() / 1000) } : {}),
    ...(end ? { until: Math.floor(end.getTime() / 1000) } : {}),
  });
  return tradesOf(rows, restDecimals(pool), outcomeId);
}
