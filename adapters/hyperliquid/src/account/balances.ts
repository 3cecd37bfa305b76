import { roundTo, toNumber } from '@predgate/core';
import type { Balance, Position } from '@predgate/core';
import type { HyperliquidContext } from '../context.js';
import { assetIdOf, sideOfCoin } from '../ids.js';
import { userOf } from './credentials.js';

/*
 * Spot balances: outcome holdings are spot tokens `+<encoding>`, so they are
 * positions, not currencies.
 */

export async function fetchBalance(ctx: HyperliquidContext, address?: string): Promise<Balance[]> {
  const { balances } = await ctx.api.spotState(userOf(ctx, address));
  return balances
    .filter((balance) => !sideOfCoin(balance.coin) && toNumber(balance.total)! !== 0)
    .map((balance) => {
      const total = toNumber(balance.total)!;
      const locked = toNumber(balance.hold)!;
      return { currency: balance.coin, total, locked, available: Math.max(0, total - locked) };
    });
}

export async function fetchPositions(ctx: HyperliquidContext, address?: string): Promise<Position[]> {
  const [{ balances }, mids, meta] = await Promise.all([ctx.api.spotState(userOf(ctx, address)), ctx.api.allMids(), ctx.api.outcomeMeta()]);
  const sideNames = new Map(meta.outcomes.map((outcome) => [outcome.outcome, outcome.sideSpecs.map((spec) => spec.name)]));
  return balances.flatMap((balance) => {
    const side = balance.coin.startsWith('+') ? sideOfCoin(balance.coin) : undefined;
    const size = toNumber(balance.total)!;
    if (!side || size === 0) return [];
    const entryPrice = roundTo((toNumber(balance.entryNtl) ?? 0) / size, 10);
    const currentPrice = toNumber(mids[`#${balance.coin.slice(1)}`]);
    return [
      {
        marketId: String(side.outcome),
        outcomeId: assetIdOf(side),
        // A settled outcome leaves outcomeMeta: its side is then named by its coin.
        outcomeLabel: sideNames.get(side.outcome)?.[side.side] ?? `#${balance.coin.slice(1)}`,
        size,
        entryPrice,
        // Without a mid the position is valued at its entry: no gain is invented.
        currentPrice: currentPrice ?? entryPrice,
        unrealizedPnL: currentPrice === undefined ? 0 : roundTo((currentPrice - entryPrice) * size, 9),
      },
    ];
  });
}
