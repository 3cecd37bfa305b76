import { compact, roundTo, toEpochMs, toFraction, toNumber } from '@predgate/core';
import type { Order, OrderStatus, Position, UserTrade } from '@predgate/core';
import type { RawOrder, RawPosition, RawTrade } from '../api/schemas.js';

/** Opinion's order states: 1 pending (resting), 2 filled, 3 cancelled, 4 expired, 5 failed. */
const orderStatuses: Record<number, OrderStatus> = { 1: 'open', 2: 'filled', 3: 'cancelled', 4: 'cancelled', 5: 'rejected' };

/** An order; `outcomeId` is the token of the order's side, which Opinion's order payload leaves out. */
export function toOrder(raw: RawOrder, outcomeId: string): Order {
  const amount = toNumber(raw.orderShares) ?? 0;
  const filled = toNumber(raw.filledShares) ?? 0;
  return compact({
    id: raw.orderId,
    marketId: String(raw.marketId),
    outcomeId,
    side: raw.side === 1 ? ('buy' as const) : ('sell' as const),
    type: raw.tradingMethod === 2 ? ('limit' as const) : ('market' as const),
    // A market order carries price 0: it has no limit, not a price of zero; it is priced at its average fill once it has one.
    price: toNumber(raw.price) ? toFraction(raw.price) : averageFill(raw, filled),
    amount,
    status: orderStatuses[raw.status]!,
    filled,
    remaining: Math.max(0, roundTo(amount - filled, 10)),
    timestamp: toEpochMs(raw.createdAt)!,
  });
}

/** Quote token per share over the fills so far (`filledAmount / filledShares`); none before a fill. */
function averageFill(raw: RawOrder, filled: number): number | undefined {
  const spent = toNumber(raw.filledAmount);
  return spent === undefined || filled <= 0 ? undefined : toFraction(roundTo(spent / filled, 10));
}

export function toUserTrade(raw: RawTrade, outcomeId: string): UserTrade {
  const side = raw.side.toLowerCase();
  return compact({
    id: raw.txHash,
    timestamp: toEpochMs(raw.createdAt)!,
    price: toFraction(raw.price)!,
    amount: toNumber(raw.shares)!,
    side: side === 'buy' || side === 'sell' ? side : ('unknown' as const),
    outcomeId,
    marketId: String(raw.marketId),
    fee: toNumber(raw.fee),
  });
}

/** A holding; its current price is its value per share, as Opinion reports value rather than price. None for a sold-out one. */
export function toPosition(raw: RawPosition): Position | undefined {
  const size = toNumber(raw.sharesOwned)!;
  if (size === 0) return undefined;
  return {
    marketId: String(raw.marketId),
    outcomeId: raw.tokenId,
    outcomeLabel: raw.outcome ?? '',
    size,
    entryPrice: toFraction(raw.avgEntryPrice)!,
    currentPrice: toFraction(roundTo(toNumber(raw.currentValueInQuoteToken)! / size, 10))!,
    unrealizedPnL: toNumber(raw.unrealizedPnl)!,
  };
}
