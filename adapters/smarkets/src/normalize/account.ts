import { compact } from '@predgate/core';
import type { Balance, Order } from '@predgate/core';
import type { RawOrder, RawPlacement } from '../api/schemas.js';
import { outcomeIdOf } from '../ids.js';
import { fromBasisPoints, fromQuantity } from './units.js';

export function normalizeBalance(account: { currency: string; balance: string; available_balance: string }): Balance {
  const total = Number(account.balance);
  const available = Number(account.available_balance);
  return { currency: account.currency, total, available, locked: Math.max(0, Math.round((total - available) * 100) / 100) };
}

/** Created and partly matched orders rest (open); the venue has no cancelled state: a cancelled order leaves the list. */
export function normalizeOrder(raw: RawOrder): Order {
  return compact({
    id: raw.id,
    marketId: raw.market_id,
    outcomeId: outcomeIdOf(raw.market_id, raw.contract_id),
    side: raw.side,
    type: raw.type === 'immediate_or_cancel' ? ('market' as const) : ('limit' as const),
    price: fromBasisPoints(raw.price),
    amount: fromQuantity(raw.quantity),
    status: raw.state === 'filled' || raw.state === 'settled' ? ('filled' as const) : ('open' as const),
    filled: fromQuantity(raw.quantity_filled),
    remaining: fromQuantity(raw.quantity_unfilled),
    timestamp: Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(raw.created_datetime) ? raw.created_datetime : `${raw.created_datetime}Z`),
  });
}

export function normalizePlacement(raw: RawPlacement, type: 'limit' | 'market', now: number): Order {
  const filled = fromQuantity(raw.total_executed_quantity);
  const remaining = fromQuantity(raw.available_quantity);
  return {
    id: raw.order_id,
    marketId: raw.market_id,
    outcomeId: outcomeIdOf(raw.market_id, raw.contract_id),
    side: raw.side,
    type,
    price: fromBasisPoints(raw.executed_avg_price ? raw.executed_avg_price : raw.price),
    amount: fromQuantity(raw.quantity),
    status: remaining === 0 && filled > 0 ? 'filled' : 'open',
    filled,
    remaining,
    timestamp: now,
  };
}
