import { PredgateError } from '@predgate/core';
import type { OrderSide } from '@predgate/core';
import { venueId } from '../venue.js';

/**
 * The integer amounts (18 decimals) of an order, computed in integers so no
 * float rounding reaches a signed order. Shares go in steps of 0.01 (the
 * SDK's size step), rounded down; the price must lie on the market's tick
 * grid, strictly between 0 and 1. A buy's maker amount is USDT and its taker
 * amount shares; a sell the other way round.
 */
export interface OrderAmounts {
  makerAmount: bigint;
  takerAmount: bigint;
  /** The price signed. */
  price: number;
  /** The share count signed. */
  size: number;
}

/** 10^16 wei: one hundredth of a share. */
const centShare = 10n ** 16n;

export function orderAmounts(order: { side: OrderSide; amount: number; price: number; tickSize: number }): OrderAmounts {
  const tickDecimals = decimalsOf(order.tickSize);
  const scale = 10 ** tickDecimals;
  const ticks = Math.round(order.price * scale);
  // A price off the grid is refused, not moved: the caller asked for that price.
  if (!(order.price > 0 && order.price < 1) || Math.abs(ticks - order.price * scale) > 1e-6 || ticks <= 0 || ticks >= scale) {
    throw new PredgateError(
      'INVALID_ORDER',
      `${venueId}: price ${order.price} must be strictly between 0 and 1 and a multiple of the market's tick ${order.tickSize}`,
      { exchange: venueId, detail: { price: order.price, tickSize: order.tickSize } },
    );
  }
  // The small epsilon keeps 0.29 * 100 = 28.999999999999996 at 29 hundredths.
  const sizeCents = BigInt(Math.floor(order.amount * 100 + 1e-9));
  if (sizeCents <= 0n) {
    throw new PredgateError('ORDER_SIZE_TOO_SMALL', `${venueId}: orders are in steps of 0.01 share; ${order.amount} is less than one step`, {
      exchange: venueId,
      detail: { min: 0.01, amount: order.amount },
    });
  }
  const shares = sizeCents * centShare;
  // Exact: 10^16 is a multiple of 10^tickDecimals (tickDecimals ≤ 6).
  const notional = (shares * BigInt(ticks)) / BigInt(scale);
  const size = Number(sizeCents) / 100;
  const price = ticks / scale;
  return order.side === 'buy' ? { makerAmount: notional, takerAmount: shares, price, size } : { makerAmount: shares, takerAmount: notional, price, size };
}

/** 0.01 → 2, 0.001 → 3: ticks are powers of ten. */
function decimalsOf(tick: number): number {
  const decimals = Math.round(-Math.log10(tick));
  if (!(tick > 0 && tick < 1) || decimals > 6 || Math.abs(10 ** -decimals - tick) > 1e-12) {
    throw new PredgateError('INVALID_ORDER', `${venueId}: tick size ${tick} is not a power of ten between 0.1 and 0.000001`, {
      exchange: venueId,
      detail: { tickSize: tick },
    });
  }
  return decimals;
}
