import { PredgateError, fromBaseUnits, reportDrift, roundTo, toEpochMs, toNumber } from '@predgate/core';
import type { Position, UserTrade } from '@predgate/core';
import type { RawAmmPosition, RawClobPosition, RawHistoryEntry, RawUserOrder } from '../api/schemas.js';
import { tradeStrategies } from '../api/schemas.js';
import { venueId } from '../venue.js';
import { ammOutcomeId } from '../ids.js';
import type { OutcomeIds } from '../ids.js';

const labels = ['Yes', 'No'] as const;

/**
 * A CLOB position entry holds both sides: each side with shares becomes a
 * position. Amounts, the average fill price and P&L are raw 6-decimal
 * integers; the latest trade prices are fractions.
 */
export function clobPositions(raw: RawClobPosition, ids: OutcomeIds, entry: number): Position[] {
  return (['yes', 'no'] as const).flatMap((side, index) => {
    const size = fromBaseUnits(raw.tokensBalance[side], 6)!;
    if (size <= 0) return [];
    const held = raw.positions[side];
    const latest = index === 0 ? 'latestYesPrice' : 'latestNoPrice';
    const at = `clob.${entry}`;
    const entryPrice = modelPrice(fromBaseUnits(held.fillPrice, 6)!, positionsEndpoint, `${at}.positions.${side}.fillPrice`, raw.market.slug);
    const currentPrice = modelPrice(toNumber(raw.latestTrade[latest])!, positionsEndpoint, `${at}.latestTrade.${latest}`, raw.market.slug);
    if (entryPrice === undefined || currentPrice === undefined) return [];
    return [
      {
        marketId: raw.market.slug,
        outcomeId: ids[index]!,
        outcomeLabel: labels[index]!,
        size,
        entryPrice,
        currentPrice,
        unrealizedPnL: fromBaseUnits(held.unrealizedPnl, 6)!,
        realizedPnL: fromBaseUnits(held.realisedPnl, 6)!,
      },
    ];
  });
}

/**
 * An AMM position entry is one outcome, in decimal strings (the SDK's
 * reading). Without a latest trade, a resolved market's price is its result;
 * an open one's is unknown: the entry is left out and reported as drift
 * naming its slug and the field, the other positions served.
 */
export function ammPosition(raw: RawAmmPosition, entry: number): Position[] {
  const size = toNumber(raw.outcomeTokenAmount)!;
  if (size <= 0) return [];
  const side = raw.outcomeIndex;
  const winner = raw.market.winningOutcomeIndex;
  const current = toNumber(raw.latestTrade?.outcomeTokenPrice) ?? (winner === 0 || winner === 1 ? (winner === side ? 1 : 0) : undefined);
  const at = `amm.${entry}`;
  if (current === undefined) {
    reportDrift(unreadable(positionsEndpoint, `${at}.latestTrade.outcomeTokenPrice`, raw.market.slug, 'has no latest price'));
    return [];
  }
  const entryPrice = modelPrice(toNumber(raw.averageFillPrice)!, positionsEndpoint, `${at}.averageFillPrice`, raw.market.slug);
  const currentPrice = modelPrice(current, positionsEndpoint, `${at}.latestTrade.outcomeTokenPrice`, raw.market.slug);
  if (entryPrice === undefined || currentPrice === undefined) return [];
  return [
    {
      marketId: raw.market.slug,
      outcomeId: ammOutcomeId(raw.market.slug, side === 0 ? 'yes' : 'no'),
      outcomeLabel: labels[side],
      size,
      entryPrice,
      currentPrice,
      unrealizedPnL: toNumber(raw.unrealizedPnl)!,
      realizedPnL: toNumber(raw.realizedPnl)!,
    },
  ];
}

export const isTrade = (entry: RawHistoryEntry) => tradeStrategies.includes(entry.strategy);

/**
 * A trade of the activity log as a fill: the transaction hash is its id (the
 * log has no fill id), the block time in seconds its time, the outcome
 * token price and amount (decimal strings) its price and size. A price
 * outside [0, 1] leaves the fill out as drift.
 */
export function historyTrade(raw: RawHistoryEntry, ids: OutcomeIds): UserTrade[] {
  const index = raw.outcomeIndex as 0 | 1;
  const price = modelPrice(toNumber(raw.outcomeTokenPrice)!, 'GET /portfolio/history', 'outcomeTokenPrice', raw.transactionHash!);
  if (price === undefined) return [];
  return [
    {
      id: raw.transactionHash!,
      timestamp: toEpochMs(raw.blockTimestamp)!,
      price,
      amount: toNumber(raw.outcomeTokenAmount)!,
      side: /sell/i.test(raw.strategy) ? 'sell' : 'buy',
      outcomeId: ids[index]!,
      marketId: raw.market!.slug,
    },
  ];
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

/**
 * Why an order cannot be sent as the model has it (a price outside [0, 1]):
 * the drift error naming the field, or undefined when it reads.
 */
export function userOrderDrift(raw: RawUserOrder): PredgateError | undefined {
  const price = toNumber(raw.price);
  return price === undefined || (price >= 0 && price <= 1)
    ? undefined
    : unreadable('GET /markets/{slug}/user-orders', 'price', String(raw.id), `is ${price}, not a price in [0, 1]`);
}

/** The orders that read, each unreadable one left out and reported as drift. */
export function readableUserOrders(raws: RawUserOrder[]): RawUserOrder[] {
  return raws.filter((raw) => {
    const drift = userOrderDrift(raw);
    if (drift) reportDrift(drift);
    return !drift;
  });
}

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

const positionsEndpoint = 'GET /portfolio/positions';

/**
 * A price as the model takes it: a fraction, float noise from base-unit
 * division rounded off. One outside [0, 1] is never sent, nor silently
 * clamped: its item is left out and reported as drift naming the field.
 */
function modelPrice(value: number, endpoint: string, field: string, item: string): number | undefined {
  if (value >= 0 && value <= 1) return roundTo(value, 6);
  reportDrift(unreadable(endpoint, field, item, `is ${value}, not a price in [0, 1]`));
  return undefined;
}

function unreadable(endpoint: string, field: string, item: string, what: string): PredgateError {
  return new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venueId} answered ${endpoint} with an item (${item}) whose ${field} ${what}`, {
    exchange: venueId,
    detail: { endpoint, field, drift: true, item },
  });
}
