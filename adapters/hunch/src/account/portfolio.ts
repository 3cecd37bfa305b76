import { percentToFraction, toNumber } from '@predgate/core';
import { walletOf } from '../auth/wallet.js';
import type { HunchContext } from '../context.js';
import { unreadable } from '../errors.js';

/** A settled position is worth what its market paid: 100 cents a share when its side won, none when it lost. */
const settledCents: Record<string, number> = { 'resolved-won': 100, 'resolved-lost': 0 };

export async function fetchPositions(ctx: HunchContext, address?: string) {
  const positions = await ctx.api.positions(walletOf(ctx.credentials, address));
  return positions.map((row) => {
    // Amounts come as numbers or numeric text (the schema takes both).
    const entry = toNumber(row.avgEntryCents)!;
    const shares = toNumber(row.shares)!;
    const current = settledCents[row.status ?? ''] ?? toNumber(row.currentCents) ?? entry;
    return {
      marketId: row.marketId,
      outcomeId: `${row.marketId}:${row.side}`,
      outcomeLabel: row.outcomeLabel ?? row.side,
      size: shares,
      entryPrice: percentToFraction(entry)!,
      currentPrice: percentToFraction(current)!,
      unrealizedPnL: toNumber(row.pnlUsd) ?? ((current - entry) * shares) / 100,
    };
  });
}

export async function fetchBalance(ctx: HunchContext) {
  const wallet = walletOf(ctx.credentials, undefined);
  const { usdcBalanceUsd } = await ctx.api.readiness(wallet);
  // Null means the venue could not read the wallet: unknown is not zero.
  if (usdcBalanceUsd === null) throw unreadable('readiness.usdcBalanceUsd');
  return [{ currency: 'USDC', total: usdcBalanceUsd, available: usdcBalanceUsd, locked: 0 }];
}
