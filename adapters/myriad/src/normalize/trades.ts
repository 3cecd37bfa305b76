import { toNumber } from '@predgate/core';
import type { Trade } from '@predgate/core';
import type { RawMarketEvent } from '../api/schemas.js';

/** Buys and sells are trades; liquidity, claim and fee rows are not, nor a row of no shares. */
export function isTrade(row: Pick<RawMarketEvent, 'action' | 'shares'>): boolean {
  return (row.action === 'buy' || row.action === 'sell') && toNumber(row.shares)! > 0;
}

/** A trade row as a unified trade of `outcomeId`; `index` names a row that has no transaction id. */
export function tradeOf(row: Omit<RawMarketEvent, 'outcomeId'>, outcomeId: string, index: number): Trade {
  const shares = toNumber(row.shares)!;
  return {
    id: row.txId ?? `${row.blockNumber ?? row.timestamp}-${index}`,
    timestamp: row.timestamp * 1000,
    // The row carries what was paid (or received) for the shares: the price is their ratio.
    price: toNumber(row.value)! / shares,
    amount: shares,
    side: row.action as 'buy' | 'sell',
    outcomeId,
  };
}
