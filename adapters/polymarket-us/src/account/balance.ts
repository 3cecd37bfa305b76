import type { Balance } from '@predgate/core';
import type { PolymarketUsContext } from '../context.js';

export async function fetchBalance(ctx: PolymarketUsContext): Promise<Balance[]> {
  return (await ctx.api.balances()).balances.map((balance) => ({
    currency: balance.currency,
    total: balance.currentBalance,
    available: balance.buyingPower,
    locked: Math.max(0, Math.round((balance.currentBalance - balance.buyingPower) * 100) / 100),
  }));
}
