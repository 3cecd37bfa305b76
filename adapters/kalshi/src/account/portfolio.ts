import { text } from '@predgate/core';
import type { Balance, Market, MyTradesParams, Position, UserTrade } from '@predgate/core';
import { collectPages } from '../api/paging.js';
import type { RawBalance, RawFill, RawMarket, RawMarketPosition } from '../api/types.js';
import type { KalshiContext } from '../context.js';
import { invalidArgument } from '../errors.js';
import { outcomeIdOf, outcomeOf, ticker } from '../ids.js';
import { normalizeMarket } from '../normalize/market.js';
import { normalizeBalance, normalizePosition } from '../normalize/portfolio.js';
import { fillTime, normalizeFill } from '../normalize/trades.js';
import { liveAndHistorical } from './history.js';
import { checked } from '../api/schemas.js';

const positionsPage = 200;
const fillsPage = 200;
const defaultFills = 100;
/** Tickers per `GET /markets?tickers=` lookup. */
const marketsBatch = 100;

/** fetchBalance: the account's USD cash and position value. */
export async function fetchBalance(ctx: KalshiContext, address?: string): Promise<Balance[]> {
  ctx.api.requireCredentials();
  rejectAddress(ctx, 'fetchBalance', address);
  const answer = checked<RawBalance>('GET /portfolio/balance', ctx.origin.exchange, await ctx.api.account<unknown>('GET', '/portfolio/balance'));
  return [normalizeBalance(answer)];
}

/**
 * fetchPositions: the account's market positions (closed ones included,
 * with their realised PnL), valued at the markets' current prices, which one
 * public lookup per hundred markets provides.
 */
export async function fetchPositions(ctx: KalshiContext, address?: string): Promise<Position[]> {
  ctx.api.requireCredentials();
  rejectAddress(ctx, 'fetchPositions', address);
  const positions = await collectPages<RawMarketPosition>(
    'market_positions',
    (cursor, remaining) => ctx.api.account('GET', '/portfolio/positions', { query: { limit: Math.min(positionsPage, remaining), cursor } }),
    Number.POSITIVE_INFINITY,
    ctx.config.maxPages,
    { venue: ctx.origin.exchange, endpoint: 'GET /portfolio/positions' },
  );
  const markets = await marketsByTicker(
    ctx,
    positions.map((position) => position.ticker),
  );
  return positions.map((position) => normalizePosition(position, markets.get(position.ticker)));
}

/**
 * fetchMyTrades: the account's fills, live and historical, newest first; of
 * one market (`marketId`) or one outcome (`outcomeId`, which also keeps only
 * that contract's fills).
 */
export async function fetchMyTrades(ctx: KalshiContext, params: MyTradesParams = {}): Promise<UserTrade[]> {
  const outcome = params.outcomeId === undefined ? undefined : outcomeOf(params.outcomeId);
  const fills = await liveAndHistorical<RawFill>(ctx, {
    listKey: 'fills',
    livePath: '/portfolio/fills',
    historicalPath: '/historical/fills',
    ticker: outcome?.ticker ?? (params.marketId === undefined ? undefined : ticker(params.marketId)),
    since: params.since,
    until: params.until,
    cursor: params.cursor,
    wanted: params.limit ?? defaultFills,
    pageSize: fillsPage,
    idOf: (fill) => text(fill.fill_id) ?? text(fill.trade_id),
    timeOf: fillTime,
  });
  const trades = fills.flatMap((fill) => normalizeFill(fill) ?? []);
  if (outcome === undefined) return trades;
  const outcomeId = outcomeIdOf(outcome.ticker, outcome.side);
  return trades.filter((trade) => trade.outcomeId === outcomeId);
}

async function marketsByTicker(ctx: KalshiContext, tickers: string[]): Promise<Map<string, Market>> {
  const unique = [...new Set(tickers)];
  const markets = new Map<string, Market>();
  for (let start = 0; start < unique.length; start += marketsBatch) {
    const batch = unique.slice(start, start + marketsBatch);
    const answer = checked<{ markets?: RawMarket[] | null }>(
      'GET /markets',
      ctx.origin.exchange,
      await ctx.api.get<unknown>('/markets', { tickers: batch.join(','), limit: batch.length }),
    );
    for (const raw of answer.markets ?? []) markets.set(raw.ticker, normalizeMarket(raw, {}, ctx.origin));
  }
  return markets;
}

/** Kalshi accounts have no public address: an address would silently read the caller's own account instead. */
function rejectAddress(ctx: KalshiContext, method: string, address: string | undefined): void {
  if (address === undefined) return;
  throw invalidArgument(
    ctx.origin.exchange,
    method,
    'address',
    `${ctx.origin.exchange} accounts have no public address; call it without "address"`,
    'any.unknown',
  );
}
