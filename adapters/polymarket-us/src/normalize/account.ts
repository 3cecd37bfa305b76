import { compact, complement, roundTo, text, toEpochMs, toNumber } from '@predgate/core';
import type { Order, OrderStatus, Position, UserTrade } from '@predgate/core';
import type { RawOrder, RawPosition, RawTrade } from '../api/schemas.js';
import { outcomeIdOf } from '../ids.js';
import type { Side } from '../ids.js';

const states: Record<string, OrderStatus> = {
  ORDER_STATE_FILLED: 'filled',
  ORDER_STATE_CANCELED: 'cancelled',
  ORDER_STATE_EXPIRED: 'cancelled',
  ORDER_STATE_REJECTED: 'rejected',
  ORDER_STATE_PENDING_NEW: 'pending',
  ORDER_STATE_PENDING_RISK: 'pending',
};

/**
 * Side and outcome come from the intent; the venue's price is the long
 * side's, so a short order's is its complement. A market order, which has no
 * limit, is priced at its average fill (`avgPx`) where the venue gives one.
 */
export function normalizeOrder(raw: RawOrder): Order {
  const [, action, side] = /^ORDER_INTENT_(BUY|SELL)_(LONG|SHORT)$/.exec(raw.intent)!;
  const averageFill = toNumber(typeof raw.avgPx === 'object' ? raw.avgPx?.value : raw.avgPx);
  const longPrice = raw.type === 'ORDER_TYPE_MARKET' ? (averageFill ?? toNumber(raw.price?.value)) : toNumber(raw.price?.value);
  const amount = toNumber(raw.quantity)!;
  const filled = toNumber(raw.cumQuantity) ?? 0;
  return compact({
    id: raw.id,
    marketId: raw.marketSlug,
    outcomeId: outcomeIdOf(raw.marketSlug, side === 'LONG' ? 'long' : 'short'),
    side: action === 'BUY' ? ('buy' as const) : ('sell' as const),
    type: raw.type === 'ORDER_TYPE_MARKET' ? ('market' as const) : ('limit' as const),
    price: longPrice === undefined ? undefined : side === 'LONG' ? longPrice : complement(longPrice),
    amount,
    status: states[raw.state] ?? 'open',
    filled,
    remaining: toNumber(raw.leavesQuantity) ?? Math.max(0, amount - filled),
    timestamp: toEpochMs(raw.createTime) ?? toEpochMs(raw.insertTime)!,
    fee: toNumber(raw.commissionNotionalTotalCollected?.value),
  });
}

/** A position is long or short by the sign of the net position; flat ones are left out. */
export function normalizePosition(slug: string, raw: RawPosition): Position | undefined {
  const net = toNumber(raw.netPosition)!;
  if (net === 0) return undefined;
  const size = Math.abs(net);
  const entryPrice = roundTo(Math.abs(toNumber(raw.cost.value)!) / size, 10);
  const side: Side = net > 0 ? 'long' : 'short';
  return compact({
    marketId: slug,
    outcomeId: outcomeIdOf(slug, side),
    outcomeLabel: `${text(raw.marketMetadata?.title) ?? slug} (${side})`,
    size,
    entryPrice,
    // The venue gives no current price with positions: valued at entry, no gain invented.
    currentPrice: entryPrice,
    unrealizedPnL: 0,
    realizedPnL: toNumber(raw.realized?.value),
  });
}

/**
 * One of the account's fills. The venue's trade record names neither the
 * intent nor the side: the side is `unknown`, the price the long side's as
 * the venue states every price, and no outcome is claimed.
 */
export function normalizeMyTrade(raw: RawTrade): UserTrade {
  return compact({
    id: raw.id,
    timestamp: toEpochMs(raw.createTime)!,
    price: toNumber(raw.price.value)!,
    amount: Math.abs(toNumber(raw.qty)!),
    side: 'unknown' as const,
    marketId: raw.marketSlug,
  });
}
