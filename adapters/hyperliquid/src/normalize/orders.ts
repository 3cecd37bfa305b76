import { toNumber } from '@predgate/core';
import type { Order } from '@predgate/core';
import type { RawOpenOrder } from '../api/schemas.js';
import { assetIdOf, sideOfCoin } from '../ids.js';

/** A resting order of an outcome side; orders of other coins (perps, spot) are not this adapter's. */
export function normalizeOpenOrder(raw: RawOpenOrder): Order | undefined {
  const side = raw.coin.startsWith('#') ? sideOfCoin(raw.coin) : undefined;
  if (!side) return undefined;
  const remaining = toNumber(raw.sz)!;
  const amount = toNumber(raw.origSz) ?? remaining;
  return {
    id: String(raw.oid),
    marketId: String(side.outcome),
    outcomeId: assetIdOf(side),
    side: raw.side === 'B' ? 'buy' : 'sell',
    type: 'limit',
    price: toNumber(raw.limitPx)!,
    amount,
    status: 'open',
    filled: Math.max(0, amount - remaining),
    remaining,
    timestamp: raw.timestamp,
  };
}
