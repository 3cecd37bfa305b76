import { invalidArgument, toNumber } from '@predgate/core';
import { venueId } from '../venue.js';
import type { ProbableContext } from '../context.js';

/** Public: positions of any address (or the `funderAddress` credential). */
export async function fetchPositions(ctx: ProbableContext, address?: string) {
  const user = address ?? ctx.credentials?.funderAddress;
  if (!user) throw invalidArgument('address', `${venueId} positions are read by address: give one, or the funderAddress credential`);
  if (!/^0x[0-9a-fA-F]{40}$/.test(user)) throw invalidArgument('address', `${venueId} accounts are BNB Chain addresses (0x and 40 hex digits)`);
  // The SDK writes camelCase, older clients snake_case: both are read.
  return (await ctx.api.positions(user)).map((row) => {
    const pick = (camel: string, snake: string) => row[camel] ?? row[snake];
    const size = toNumber(row.size)!;
    const entryPrice = toNumber(pick('avgPrice', 'avg_price'))!;
    const currentPrice = toNumber(pick('curPrice', 'cur_price')) ?? entryPrice;
    return {
      marketId: String(pick('conditionId', 'condition_id') ?? ''),
      outcomeId: String(pick('asset', 'token_id')),
      outcomeLabel: String(row.outcome ?? ''),
      size,
      entryPrice,
      currentPrice,
      unrealizedPnL: toNumber(pick('cashPnl', 'cash_pnl')) ?? (currentPrice - entryPrice) * size,
      ...(toNumber(pick('realizedPnl', 'realized_pnl')) === undefined ? {} : { realizedPnL: toNumber(pick('realizedPnl', 'realized_pnl'))! }),
    };
  });
}
