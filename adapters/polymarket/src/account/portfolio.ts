import { PredgateError, toNumber } from '@predgate/core';
import type { Balance, MyTradesParams, Position, UserTrade } from '@predgate/core';
import type { Query } from '../api/client.js';
import type { ClobOpenOrder } from '../api/types.js';
import { amountDecimals } from '../auth/contracts.js';
import { fundsAddressOf, signatureTypeOf } from '../auth/credentials.js';
import type { PolymarketContext } from '../context.js';
import { normalizePosition, normalizeUserTrades } from '../normalize/account.js';
import { venueId } from '../venue.js';

/** The Data API's page of positions. */
const positionsPage = 500;
const defaultMyTrades = 100;

/**
 * pUSD collateral (reported as `USDC`, as pmxt does). The CLOB's balance is
 * the whole wallet; what open buy orders have promised is `locked`. A
 * public address is not enough: the balance endpoint is authenticated.
 */
export async function fetchBalance(ctx: PolymarketContext, address?: string): Promise<Balance[]> {
  if (address !== undefined && !ctx.credentials) {
    throw new PredgateError('NOT_SUPPORTED', `${venueId}: the CLOB reports balances to their owner only; pass credentials instead of an address`, {
      exchange: venueId,
      detail: { argument: 'address' },
    });
  }
  const answer = await ctx.clobPrivate.collateralBalance(signatureTypeOf(ctx.credentials ?? {}));
  // Summed in micro-units, as the venue counts, so no float noise creeps into the totals.
  const scale = 10 ** amountDecimals;
  const totalMicro = toNumber(answer.balance) ?? 0;
  const lockedMicro = (await ctx.clobPrivate.openOrders({}))
    .filter((order) => order.side?.toUpperCase() === 'BUY')
    .reduce((sum, order) => sum + Math.round(unfilled(order) * (toNumber(order.price) ?? 0) * scale), 0);
  return [
    {
      currency: 'USDC',
      total: totalMicro / scale,
      available: Math.max(0, totalMicro - lockedMicro) / scale,
      locked: lockedMicro / scale,
    },
  ];
}

/** Positions of `address`, or of the account's funder; public, so an address needs no credentials. */
export async function fetchPositions(ctx: PolymarketContext, address?: string): Promise<Position[]> {
  const user = address ?? fundsAddressOf(ctx.credentials);
  const positions: Position[] = [];
  for (let offset = 0; ; offset += positionsPage) {
    const page = await ctx.data.positions({ user, sizeThreshold: 0, limit: positionsPage, ...(offset > 0 ? { offset } : {}) });
    positions.push(...page.map(normalizePosition).filter((position): position is Position => position !== undefined));
    if (page.length < positionsPage) return positions;
  }
}

/** The account's fills from the CLOB's trade ledger, newest first. */
export async function fetchMyTrades(ctx: PolymarketContext, params: MyTradesParams = {}): Promise<UserTrade[]> {
  const account = fundsAddressOf(ctx.credentials);
  const limit = params.limit ?? defaultMyTrades;
  const query: Query = {
    maker_address: account,
    market: params.marketId === undefined ? undefined : await ctx.lookup.conditionIdOf(params.marketId),
    asset_id: params.outcomeId,
    after: params.since === undefined ? undefined : Math.floor(params.since.getTime() / 1000),
    before: params.until === undefined ? undefined : Math.floor(params.until.getTime() / 1000),
  };
  const trades = await ctx.clobPrivate.trades(query, limit, params.cursor);
  return trades.flatMap((trade) => normalizeUserTrades(trade, account)).slice(0, limit);
}

function unfilled(order: ClobOpenOrder): number {
  return Math.max(0, (toNumber(order.original_size) ?? 0) - (toNumber(order.size_matched) ?? 0));
}
