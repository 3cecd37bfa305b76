import { compact, complement, roundTo, text, toEpochMs, toFraction, toNumber } from '@predgate/core';
import type { Order, OrderStatus, Position } from '@predgate/core';
import type { RawOrder, RawPosition } from '../api/schemas.js';
import { outcomeIdOf } from '../ids.js';

const orderStatuses: Record<string, OrderStatus> = {
  open: 'open',
  accepted: 'open',
  pending: 'pending',
  filled: 'filled',
  cancelled: 'cancelled',
  canceled: 'cancelled',
  rejected: 'rejected',
};

export function normalizeOrder(raw: RawOrder): Order {
  const amount = toNumber(raw.quantity)!;
  const filled = toNumber(raw.filledQuantity) ?? 0;
  return compact({
    id: String(raw.orderId),
    marketId: raw.symbol,
    outcomeId: outcomeIdOf(raw.symbol, raw.outcome),
    side: raw.side,
    type: 'limit' as const,
    price: toNumber(raw.price) ?? toNumber(raw.avgExecutionPrice),
    amount,
    status: orderStatuses[raw.status.toLowerCase()] ?? 'open',
    filled,
    remaining: toNumber(raw.remainingQuantity) ?? Math.max(0, amount - filled),
    timestamp: toEpochMs(raw.createdAt)!,
  });
}

export function normalizePosition(raw: RawPosition): Position {
  const size = toNumber(raw.totalQuantity)!;
  const entryPrice = toNumber(raw.avgPrice)!;
  // The venue quotes YES: a NO holding is worth one minus the YES bid.
  const yesBid = toFraction(raw.prices?.bestBid);
  const current = yesBid === undefined ? entryPrice : raw.outcome === 'yes' ? yesBid : complement(yesBid);
  return compact({
    marketId: raw.symbol,
    outcomeId: outcomeIdOf(raw.symbol, raw.outcome),
    outcomeLabel: `${text(raw.contractMetadata?.contractName) ?? raw.symbol}${raw.outcome === 'no' ? ' (No)' : ''}`,
    size,
    entryPrice,
    currentPrice: current,
    unrealizedPnL: toNumber(raw.unrealizedPnl) ?? roundTo((current - entryPrice) * size, 6),
    realizedPnL: toNumber(raw.realizedPl),
  });
}
