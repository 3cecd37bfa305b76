import { compact, toEpochMs, toFraction, toNumber } from '@predgate/core';
import type { Order, OrderSide, OrderStatus, OrderType, Position, UserTrade } from '@predgate/core';
import type { ClobOpenOrder, ClobTrade, DataPosition } from '../api/types.js';
import { tradeSide } from './market-data.js';

/**
 * The CLOB's order statuses. Orders are keyed by condition id on the CLOB, so
 * `Order.marketId` is the condition id (which fetchMarket also accepts).
 */
export function orderStatus(status: string | undefined): OrderStatus {
  // Some answers spell statuses `ORDER_STATUS_LIVE`.
  const upper = (status ?? '').toUpperCase().replace(/^ORDER_STATUS_/, '');
  if (upper === 'LIVE' || upper === 'UNMATCHED') return 'open';
  if (upper === 'MATCHED') return 'filled';
  if (upper.startsWith('CANCEL')) return 'cancelled';
  if (upper === 'DELAYED') return 'pending';
  return 'rejected';
}

/** `now` dates an order the venue sent without `created_at`. */
export function normalizeOrder(order: ClobOpenOrder, now: number): Order | undefined {
  const amount = toNumber(order.original_size);
  if (!order.id || !order.market || !order.asset_id || amount === undefined || amount <= 0) return undefined;
  const filled = Math.min(amount, Math.max(0, toNumber(order.size_matched) ?? 0));
  const status = orderStatus(order.status);
  const side: OrderSide = order.side?.toLowerCase() === 'sell' ? 'sell' : 'buy';
  const orderType = (order.order_type ?? 'GTC').toUpperCase();
  return compact({
    id: order.id,
    marketId: order.market,
    outcomeId: order.asset_id,
    side,
    type: (orderType === 'FOK' || orderType === 'FAK' ? 'market' : 'limit') as OrderType,
    price: toFraction(order.price),
    amount,
    status,
    filled,
    // Only a working order still has something left to fill.
    remaining: status === 'open' || status === 'pending' ? amount - filled : 0,
    timestamp: toEpochMs(order.created_at) ?? now,
  });
}

export function normalizePosition(row: DataPosition): Position | undefined {
  const size = toNumber(row.size);
  if (!row.asset || !row.conditionId || size === undefined) return undefined;
  return compact({
    marketId: row.conditionId,
    outcomeId: row.asset,
    outcomeLabel: row.outcome ?? '',
    size,
    entryPrice: toFraction(row.avgPrice) ?? 0,
    currentPrice: toFraction(row.curPrice) ?? 0,
    unrealizedPnL: toNumber(row.cashPnl) ?? 0,
    realizedPnL: toNumber(row.realizedPnl),
  });
}

/**
 * The account's side of a CLOB trade. As taker the trade row is ours; as
 * maker our fills are the maker orders of our address, one unified trade each.
 */
export function normalizeUserTrades(trade: ClobTrade, account: string): UserTrade[] {
  const timestamp = toEpochMs(trade.match_time);
  if (!trade.id || timestamp === undefined) return [];
  if ((trade.trader_side ?? 'TAKER').toUpperCase() === 'TAKER') {
    const fill = userTrade(trade.id, timestamp, trade.market, {
      orderId: trade.taker_order_id,
      side: trade.side,
      size: trade.size,
      price: trade.price,
      outcomeId: trade.asset_id,
    });
    return fill ? [fill] : [];
  }
  const mine = (trade.maker_orders ?? []).filter((order) => order.maker_address?.toLowerCase() === account.toLowerCase());
  return mine.flatMap((order) => {
    const fill = userTrade(`${trade.id}:${order.order_id ?? ''}`, timestamp, trade.market, {
      orderId: order.order_id,
      side: order.side,
      size: order.matched_amount,
      price: order.price,
      outcomeId: order.asset_id,
    });
    return fill ? [fill] : [];
  });
}

interface Fill {
  orderId: string | undefined;
  side: string | undefined;
  size: string | undefined;
  price: string | undefined;
  outcomeId: string | undefined;
}

function userTrade(id: string, timestamp: number, marketId: string | undefined, fill: Fill): UserTrade | undefined {
  const amount = toNumber(fill.size);
  const price = toFraction(fill.price);
  if (amount === undefined || amount <= 0 || price === undefined) return undefined;
  return compact({
    id,
    timestamp,
    price,
    amount,
    side: tradeSide(fill.side),
    outcomeId: fill.outcomeId,
    orderId: fill.orderId,
    marketId,
  });
}
