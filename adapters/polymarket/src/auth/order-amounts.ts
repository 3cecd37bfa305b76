import { PredgateError } from '@predgate/core';
import type { OrderSide, OrderType } from '@predgate/core';
import { venueId } from '../venue.js';

/**
 * The integer amounts (six decimals) of a CLOB order, computed in integers so
 * no float rounding reaches a signed order. Sizes go down to 0.01 share;
 * prices snap to the market's tick.
 *
 * - Limit BUY: `takerAmount` = shares, `makerAmount` = shares × price (collateral).
 * - Limit SELL: `makerAmount` = shares, `takerAmount` = shares × price.
 * - Market orders (FOK): the venue accepts at most 2 decimals of collateral on a
 *   buy's maker side and 4 decimals on the taker side, so amounts round down to those.
 */
export interface OrderAmounts {
  makerAmount: bigint;
  takerAmount: bigint;
  /** The price actually signed, on the tick grid. */
  price: number;
  /** The share count actually signed. */
  size: number;
}

const unit = 1_000_000n;

export function orderAmounts(order: { side: OrderSide; type: OrderType; amount: number; price: number; tickSize: number }): OrderAmounts {
  const tickDecimals = decimalsOf(order.tickSize);
  const ticks = Math.round(order.price / order.tickSize);
  const priceMicro = BigInt(ticks) * 10n ** BigInt(6 - tickDecimals);
  const price = Number(priceMicro) / 1e6;
  if (price < order.tickSize || price > 1 - order.tickSize + 1e-12) {
    throw new PredgateError('INVALID_ORDER', `${venueId}: price ${order.price} is outside [${order.tickSize}, ${1 - order.tickSize}] for this market's tick`, {
      exchange: venueId,
      detail: { price: order.price, tickSize: order.tickSize },
    });
  }
  // The small epsilon keeps 0.29 * 100 = 28.999999999999996 at 29 cents.
  const sizeCents = BigInt(Math.floor(order.amount * 100 + 1e-9));
  const shares = sizeCents * 10_000n;
  const notional = (sizeCents * priceMicro) / 100n;
  const size = Number(sizeCents) / 100;
  if (order.type === 'limit') {
    return order.side === 'buy' ? { makerAmount: notional, takerAmount: shares, price, size } : { makerAmount: shares, takerAmount: notional, price, size };
  }
  if (order.side === 'buy') {
    const spend = roundDown(notional, 10_000n);
    return { makerAmount: spend, takerAmount: roundDown((spend * unit) / priceMicro, 100n), price, size };
  }
  return { makerAmount: shares, takerAmount: roundDown(notional, 100n), price, size };
}

function roundDown(value: bigint, step: bigint): bigint {
  return (value / step) * step;
}

/** 0.01 → 2, 0.001 → 3; the venue's ticks are powers of ten. */
function decimalsOf(tick: number): number {
  const decimals = Math.round(-Math.log10(tick));
  if (!(tick > 0) || Math.abs(10 ** -decimals - tick) > 1e-12 || decimals > 6) {
    throw new PredgateError('INVALID_ORDER', `${venueId}: tick size ${tick} is not one the venue uses (0.1, 0.01, 0.001, 0.0001)`, {
      exchange: venueId,
      detail: { tickSize: tick },
    });
  }
  return decimals;
}
