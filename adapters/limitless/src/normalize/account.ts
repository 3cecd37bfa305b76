import { PredgateError, fromBaseUnits, roundTo, toEpochMs, toNumber } from '@predgate/core';
import type { Position, UserTrade } from '@predgate/core';
import type { RawAmmPosition, RawClobPosition, RawHistoryEntry, RawUserOrder } from '../api/schemas.js';
import { tradeStrategies } from '../api/schemas.js';
import { ammOutcomeId } from '../ids.js';
import type { OutcomeIds } from '../ids.js';

const labels = ['Yes', 'No'] as const;

/**
 * A CLOB position entry holds both sides: each side with shares becomes a
 * position. Amounts, the average fill price and P&L are raw 6-decimal
 * integers; the latest trade prices are fractions.
 */
export function clobPositions(raw: RawClobPosition, ids: OutcomeIds): Position[] {
  return (['yes', 'no'] as const).flatMap((side, index) => {
    const size = fromBaseUnits(raw.tokensBalance[side], 6)!;
    if (size <= 0) return [];
    const held = raw.positions[side];
    const current = index === 0 ? raw.latestTrade.latestYesPrice : raw.latestTrade.latestNoPrice;
    return [
      {
        marketId: raw.market.slug,
        outcomeId: ids[index]!,
        outcomeLabel: labels[index]!,
        size,
        entryPrice: fraction(fromBaseUnits(held.fillPrice, 6)!),
        currentPrice: fraction(toNumber(current)!),
        unrealizedPnL: fromBaseUnits(held.unrealizedPnl, 6)!,
        realizedPnL: fromBaseUnits(held.realisedPnl, 6)!,
      },
    ];
  });
}

/**
 * An AMM position entry is one outcome, in decimal strings (the SDK's
 * reading). Without a latest trade, a resolved market's price is its result;
 * an open one's is unknown, which is an error naming the field.
 */
export function ammPosition(raw: RawAmmPosition, entry: number): Position[] {
  const size = toNumber(raw.outcomeTokenAmount)!;
  if (size <= 0) return [];
  const side = raw.outcomeIndex;
  const winner = raw.market.winningOutcomeIndex;
  const current = toNumber(raw.latestTrade?.outcomeTokenPrice) ?? (winner === 0 || winner === 1 ? (winner === side ? 1 : 0) : undefined);
  if (current === undefined) {
    throw new PredgateError('EXCHANGE_NOT_AVAILABLE', 'limitless answered GET /portfolio/positions without the AMM position’s latest price', {
      detail: { endpoint: 'GET /portfolio/positions', field: `amm.${entry}.latestTrade.outcomeTokenPrice`, drift: true },
    });
  }
  return [
    {
      marketId: raw.market.slug,
      outcomeId: ammOutcomeId(raw.market.slug, side === 0 ? 'yes' : 'no'),
      outcomeLabel: labels[side],
      size,
      entryPrice: fraction(toNumber(raw.averageFillPrice)!),
      currentPrice: fraction(current),
      unrealizedPnL: toNumber(raw.unrealizedPnl)!,
      realizedPnL: toNumber(raw.realizedPnl)!,
    },
  ];
}

export const isTrade = (entry: RawHistoryEntry) => tradeStrategies.includes(entry.strategy);

/**
 * A trade of the activity log as a fill: the transaction hash is its id (the
 * log has no fill id), the block time in seconds its time, the outcome
 * token price and amount (decimal strings) its price and size.
 */
export function historyTrade(raw: RawHistoryEntry, ids: OutcomeIds): UserTrade {
  const index = raw.outcomeIndex as 0 | 1;
  return {
    id: raw.transactionHash!,
    timestamp: toEpochMs(raw.blockTimestamp)!,
    price: fraction(toNumber(raw.outcomeTokenPrice)!),
    amount: toNumber(raw.outcomeTokenAmount)!,
    side: /sell/i.test(raw.strategy) ? 'sell' : 'buy',
    outcomeId: ids[index]!,
    marketId: raw.market!.slug,
  };
}

/** `user-orders` statuses: LIVE/MATCHED on the filter, the SDK's longer names on order objects. */
const orderStatuses = {
  LIVE: 'open',
  OPEN: 'open',
  PARTIALLY_FILLED: 'open',
  MATCHED: 'filled',
  FILLED: 'filled',
  CANCELLED: 'cancelled',
  CANCELED: 'cancelled',
  REJECTED: 'rejected',
} as const;

export function normalizeUserOrder(raw: RawUserOrder, slug: string) {
  const amount = toNumber(raw.quantity)!;
  const status = orderStatuses[raw.status as keyof typeof orderStatuses] ?? 'open';
  return {
    id: String(raw.id),
    marketId: slug,
    outcomeId: String(raw.tokenId),
    side: raw.side === 'BUY' ? ('buy' as const) : ('sell' as const),
    type: raw.orderType === 'FOK' ? ('market' as const) : ('limit' as const),
    ...(toNumber(raw.price) === undefined ? {} : { price: toNumber(raw.price)! }),
    amount,
    status,
    filled: status === 'filled' ? amount : 0,
    remaining: status === 'filled' ? 0 : amount,
    timestamp: toEpochMs(raw.createdAt)!,
  };
}

/** Prices are fractions; float noise from base-unit division is rounded off, never clamped silently past [0, 1]. */
function fraction(value: number): number {
  return roundTo(value, 6);
}
