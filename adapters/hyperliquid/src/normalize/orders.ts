import { toNumber } from '@predgate/core';
import type { Order, OrderStatus } from '@predgate/core';
import type { RawOpenOrder, RawVenueOrder } from '../api/schemas.js';
import { assetIdOf, sideOfCoin } from '../ids.js';

/** A resting order of an outcome side; orders of other coins (perps, spot) are not this adapter's. */
export function normalizeOpenOrder(raw: RawOpenOrder): Order | undefined {
  return normalizeVenueOrder(raw, 'open');
}

/**
 * An order of an outcome side with the venue's status word. `sz` is what
 * remains unfilled; once the order is done nothing remains, and what was
 * filled is the asked size less that rest. The venue's `Market` orders are
 * market orders; every other one (including the immediate-or-cancel limits
 * this adapter sends for market orders) is a limit order at `limitPx`.
 */
export function normalizeVenueOrder(raw: RawVenueOrder | RawOpenOrder, venueStatus: string): Order | undefined {
  const side = raw.coin.startsWith('#') ? sideOfCoin(raw.coin) : undefined;
  if (!side) return undefined;
  const unfilled = toNumber(raw.sz)!;
  const amount = toNumber(raw.origSz) ?? unfilled;
  const status = statusOf(venueStatus);
  return {
    id: String(raw.oid),
    marketId: String(side.outcome),
    outcomeId: assetIdOf(side),
    side: raw.side === 'B' ? 'buy' : 'sell',
    type: 'orderType' in raw && raw.orderType === 'Market' ? 'market' : 'limit',
    price: toNumber(raw.limitPx)!,
    amount,
    status,
    filled: Math.max(0, amount - unfilled),
    remaining: status === 'open' ? unfilled : 0,
    timestamp: raw.timestamp,
  };
}

/**
 * The venue's status words: `open`; `filled`; `triggered` (a trigger order
 * that fired: its part is done, the order it became has an oid of its own);
 * `canceled` and the `…Canceled` reasons (margin, reduce-only, self-trade,
 * …) and `scheduledCancel`; `rejected` and the `…Rejected` reasons (tick,
 * minimum value, post-only that would cross, …).
 */
function statusOf(word: string): OrderStatus {
  if (word === 'open') return 'open';
  if (word === 'filled' || word === 'triggered') return 'filled';
  if (/rejected$/i.test(word)) return 'rejected';
  return 'cancelled';
}
