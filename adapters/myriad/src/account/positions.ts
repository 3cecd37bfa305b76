import { invalidArgument, missingCredentials, toNumber } from '@predgate/core';
import { venueId } from '../context.js';
import type { MyriadContext } from '../context.js';

const evmAddress = /^0x[0-9a-fA-F]{40}$/;

export async function fetchPositions(ctx: MyriadContext, address?: string) {
  const wallet = address ?? ctx.credentials?.funderAddress;
  if (!wallet) throw missingCredentials(venueId, ['funderAddress']);
  if (!evmAddress.test(wallet)) throw invalidArgument('address', `${venueId} positions are read by EVM wallet address (0x and 40 hex digits)`);
  const { data } = await ctx.api.portfolio(wallet);
  return data.map((row) => {
    const size = toNumber(row.shares)!;
    const entryPrice = toNumber(row.price)!;
    const currentPrice = size > 0 ? toNumber(row.value)! / size : entryPrice;
    const market = `${row.networkId}:${row.marketId}`;
    return {
      marketId: market,
      outcomeId: `${market}:${row.outcomeId}`,
      outcomeLabel: row.outcomeTitle ?? `Outcome ${row.outcomeId}`,
      size,
      entryPrice,
      currentPrice,
      unrealizedPnL: toNumber(row.profit) ?? (currentPrice - entryPrice) * size,
    };
  });
}
