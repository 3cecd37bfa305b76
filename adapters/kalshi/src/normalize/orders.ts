import { compact } from '@predgate/core';
import type { Order, OrderStatus } from '@predgate/core';
import type { RawOrder } from '../api/types.js';
import { outcomeIdOf } from '../ids.js';
import { directionOf } from './direction.js';
import { countField, dollarsField, roundPrice, timeMs } from './numbers.js';
import { sidePrice } from './trades.js';

const statuses: Record<string, OrderStatus> = {
  resting: 'open',
  executed: 'filled',
  canceled: 'cancelled',
  cancelled: 'cancelled',
  pending: 'pending',
};

/** An order on the account, in the contract it trades, priced in that contract. */
export function normalizeOrder(raw: RawOrder): Order {
  const direction = directionOf(raw);
  const contract = direction?.contract ?? 'yes';
  const filled = countField(raw, 'fill_count') ?? 0;
  const remaining = countField(raw, 'remaining_count') ?? 0;
  const takerFees = dollarsField(raw, 'taker_fees');
  const makerFees = dollarsField(raw, 'maker_fees');
  return compact<Order>({
    id: raw.order_id,
    marketId: raw.ticker,
    outcomeId: outcomeIdOf(raw.ticker, contract),
    // Order records always name their action; the default only keeps a malformed record readable.
    side: direction?.action ?? 'buy',
    type: raw.type === 'market' ? 'market' : 'limit',
    price: sidePrice(raw, contract),
    // `initial_count` counts what was ordered; legacy payloads only said what was filled and what rests.
    amount: countField(raw, 'initial_count') ?? countField(raw, 'count') ?? filled + remaining,
    status: (raw.status && statuses[raw.status]) || 'pending',
    filled,
    remaining,
    timestamp: timeMs(raw.created_time) ?? timeMs(raw.last_update_time) ?? 0,
    fee: takerFees === undefined && makerFees === undefined ? undefined : roundPrice((takerFees ?? 0) + (makerFees ?? 0)),
  });
}
