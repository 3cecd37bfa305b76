import { percentToFraction } from '@predgate/core';
import { walletOf } from '../auth/wallet.js';
import type { HunchContext } from '../context.js';
import { unreadable } from '../errors.js';

export async function fetchPositions(ctx: HunchContext, address?: string) {
  const positions = await ctx.api.positions(walletOf(ctx.credentials, address));
  return positions.map((row) => ({
    marketId: row.marketId,
    outcomeId: `${row.marketId}:${row.side}`,
    outcomeLabel: row.outcomeLabel ?? row.side,
    size: row.shares,
    entryPrice: percentToFraction(row.avgEntryCents)!,
    currentPrice: percentToFraction(row.currentCents ?? row.avgEntryCents)!,
    unrealizedPnL: row.pnlUsd ?? (((row.currentCents ?? row.avgEntryCents) - row.avgEntryCents) * row.shares) / 100,
  }));
}

export async function fetchBalance(ctx: HunchContext) {
  const wallet = walletOf(ctx.credentials, undefined);
  const { usdcBalanceUsd } = await ctx.api.readiness(wallet);
  // Null means the venue could not read the wallet: unknown is not zero.
  if (usdcBalanceUsd === null) throw unreadable('readiness.usdcBalanceUsd');
  return [{ currency: 'USDC', total: usdcBalanceUsd, available: usdcBalanceUsd, locked: 0 }];
}
