import { toNumber } from '@predgate/core';
import type { MyriadContext } from '../context.js';
import { walletOf } from './wallet.js';

export async function fetchPositions(ctx: MyriadContext, address?: string) {
  const { data } = await ctx.api.portfolio(walletOf(ctx, address));
  return data.map((row) => {
    const size = toNumber(row.shares)!;
    const entryPrice = toNumber(row.price)!;
    const currentPrice = size > 0 ? toNumber(row.value)! / size : entryPrice;
    const market = `${Number(row.networkId)}:${Number(row.marketId)}`;
    return {
      marketId: market,
      outcomeId: `${market}:${Number(row.outcomeId)}`,
      outcomeLabel: row.outcomeTitle ?? `Outcome ${Number(row.outcomeId)}`,
      size,
      entryPrice,
      currentPrice,
      unrealizedPnL: toNumber(row.profit) ?? (currentPrice - entryPrice) * size,
    };
  });
}
