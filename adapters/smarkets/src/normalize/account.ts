import { compact, toEpochMs, toNumber } from '@predgate/core';
import type { Balance, Order, UserTrade } from '@predgate/core';
import type { RawActivity, RawOrder, RawPlacement } from '../api/schemas.js';
import { outcomeIdOf } from '../ids.js';
import { fromBasisPoints, fromQuantity } from './units.js';

export function normalizeBalance(account: { currency: string; balance: string; available_balance: string }): Balance {
  const total = Number(account.balance);
  const available = Number(account.available_balance);
  return { currency: account.currency, total, available, locked: Math.max(0, Math.round((total - available) * 100) / 100) };
}

/** Created and partly matched orders rest (open); the venue has no cancelled state: a cancelled order leaves the list. */
export function normalizeOrder(raw: RawOrder): Order {
  const market = raw.type === 'immediate_or_cancel';
  return compact({
    id: raw.id,
    marketId: raw.market_id,
    outcomeId: outcomeIdOf(raw.market_id, raw.contract_id),
    side: raw.side,
    type: market ? ('market' as const) : ('limit' as const),
    // A market order's price is what it filled at on average; its limit was only the worst accepted.
    price: fromBasisPoints(market && raw.average_price_matched ? raw.average_price_matched : raw.price),
    amount: fromQuantity(raw.quantity),
    status: raw.state === 'filled' || raw.state === 'settled' ? ('filled' as const) : ('open' as const),
    filled: fromQuantity(raw.quantity_filled),
    remaining: fromQuantity(raw.quantity_unfilled),
    timestamp: Date.parse(asUtc(raw.created_datetime)),
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

/**
 * One fill from the account's statement: its price in basis points, its
 * size the change of matched quantity (ten-thousandths, the pot), the
 * commission in currency. The id is the row's `seq-subseq`, unique per account.
 */
export function normalizeTrade(raw: RawActivity): UserTrade | undefined {
  const amount = fromQuantity(Math.abs(raw.quantity_change ?? raw.quantity ?? 0));
  const timestamp = toEpochMs(asUtc(raw.timestamp));
  if (amount === 0 || timestamp === undefined) return undefined;
  const fee = toNumber(raw.commission);
  return compact({
    id: `${raw.seq}-${raw.subseq}`,
    timestamp,
    price: fromBasisPoints(raw.price),
    amount,
    side: raw.side,
    outcomeId: outcomeIdOf(raw.market_id, raw.contract_id),
    orderId: raw.order_id,
    marketId: raw.market_id,
    fee: fee === undefined ? undefined : Math.abs(fee),
  });
}

/** Smarkets writes some times without a zone; they are UTC. */
function asUtc(time: string): string {
  return /[zZ]|[+-]\d\d:?\d\d$/.test(time) ? time : `${time}Z`;
}
