import { PredgateError, getExecutionPriceDetailed } from '@predgate/core';
import type { Balance, Clock, CreateOrderParams, Order, OrderBook, Position, UserTrade } from '@predgate/core';
import { round } from './random.js';
import { priceOf, venueId } from './catalog.js';
import type { SimulatedCatalog } from './catalog.js';

const takerFeeRate = 0.001;
const minimumShares = 1;

interface Holding {
  marketId: string;
  outcomeId: string;
  size: number;
  cost: number;
  realized: number;
}

/**
 * One simulated trading account. Orders match against the simulated book when
 * they cross it (the taker pays a 0.1% fee), and otherwise rest until
 * cancelled; resting orders do not move the book. Buys need cash, sells need
 * shares: there is no shorting, as on the real venues.
 */
export class SimulatedAccount {
  private cash: number;
  private readonly orders = new Map<string, Order>();
  private readonly trades: UserTrade[] = [];
  private readonly holdings = new Map<string, Holding>();
  private sequence = 0;

  constructor(
    /** Read on each use: the venue generates its catalog on first use. */
    private readonly venue: { readonly catalog: SimulatedCatalog },
    private readonly bookOf: (outcomeId: string) => OrderBook,
    private readonly clock: Clock,
    startingCash: number,
  ) {
    this.cash = startingCash;
  }

  place(params: CreateOrderParams): Order {
    const found = this.venue.catalog.outcome(params.outcomeId);
    if (!found) throw new PredgateError('OUTCOME_NOT_FOUND', `Outcome not found: ${params.outcomeId}`, { exchange: venueId });
    if (found.market.marketId !== params.marketId) {
      throw new PredgateError('INVALID_ORDER', `Outcome ${params.outcomeId} does not belong to market ${params.marketId}`, { exchange: venueId });
    }
    if (found.market.status !== 'active') {
      throw new PredgateError('INVALID_ORDER', `Market ${params.marketId} is ${found.market.status} and takes no orders`, { exchange: venueId });
    }
    if (params.amount < minimumShares) {
      throw new PredgateError('ORDER_SIZE_TOO_SMALL', `Orders must be for at least ${minimumShares} share`, {
        exchange: venueId,
        detail: { min: minimumShares },
      });
    }
    const tick = found.market.tickSize ?? 0.01;
    if (params.price !== undefined && Math.abs(params.price / tick - Math.round(params.price / tick)) > 1e-9) {
      throw new PredgateError('INVALID_ORDER', `Price ${params.price} is not a multiple of the tick size ${tick}`, {
        exchange: venueId,
        detail: { tickSize: tick },
      });
    }

    const book = this.bookOf(params.outcomeId);
    const opposite = params.side === 'buy' ? book.asks : book.bids;
    const limit = params.type === 'market' ? slippageBound(params, opposite[0]?.price) : params.price;
    const amount = sharesOf(params, limit ?? opposite[0]?.price);
    const crossing = opposite.filter((level) => (limit === undefined ? true : params.side === 'buy' ? level.price <= limit : level.price >= limit));
    if (params.postOnly && (params.type === 'market' || crossing.length > 0)) {
      throw new PredgateError('INVALID_ORDER', 'A post-only order would take liquidity: it is refused, not placed', { exchange: venueId });
    }
    if (params.reduceOnly && params.side === 'buy') {
      throw new PredgateError('INVALID_ORDER', 'A reduce-only order can only sell a position held', { exchange: venueId });
    }
    const reachable = params.side === 'buy' ? { bids: [], asks: crossing } : { bids: crossing, asks: [] };
    const fill = crossing.length > 0 ? getExecutionPriceDetailed(reachable, params.side, amount) : undefined;
    const fillOrKill = params.timeInForce === 'FOK' && (fill?.filledAmount ?? 0) < amount;
    const filled = fillOrKill ? 0 : (fill?.filledAmount ?? 0);
    if (params.type === 'market' && filled < amount) {
      throw new PredgateError(
        'NO_LIQUIDITY',
        `The book cannot fill ${amount} shares at market${params.slippage_pct === undefined ? '' : ` within ${params.slippage_pct}% slippage`}`,
        {
          exchange: venueId,
          detail: { available: filled },
        },
      );
    }

    // Immediate-or-cancel and fill-or-kill orders never rest: what is not filled now is cancelled.
    const rests = params.timeInForce !== 'IOC' && params.timeInForce !== 'FOK';
    const unfilled = round(amount - filled, 6);
    const remaining = rests ? unfilled : 0;
    const fillPrice = fill?.price ?? 0;
    const fee = round(filled * fillPrice * takerFeeRate, 6);
    this.ensureCovered({ ...params, amount }, filled * fillPrice + fee + remaining * (limit ?? 0));

    const id = `mock-order-${(this.sequence += 1)}`;
    const order: Order = {
      id,
      marketId: params.marketId,
      outcomeId: params.outcomeId,
      side: params.side,
      type: params.type,
      price: params.type === 'market' ? round(fillPrice, 6) : (limit ?? 0),
      amount,
      status: remaining > 0 ? 'open' : unfilled > 0 ? 'cancelled' : 'filled',
      filled,
      remaining,
      timestamp: this.clock.now(),
      fee,
    };
    this.orders.set(id, order);
    if (filled > 0) this.record(order, filled, fillPrice, fee);
    return { ...order };
  }

  cancel(orderId: string): Order {
    const order = this.orders.get(orderId);
    if (!order) throw new PredgateError('ORDER_NOT_FOUND', `Order not found: ${orderId}`, { exchange: venueId });
    if (order.status !== 'open' && order.status !== 'pending') {
      throw new PredgateError('INVALID_ORDER', `Order ${orderId} is ${order.status} and cannot be cancelled`, { exchange: venueId });
    }
    order.status = 'cancelled';
    order.remaining = 0;
    return { ...order };
  }

  order(orderId: string): Order {
    const order = this.orders.get(orderId);
    if (!order) throw new PredgateError('ORDER_NOT_FOUND', `Order not found: ${orderId}`, { exchange: venueId });
    return { ...order };
  }

  /** Every order, newest first. */
  allOrders(): Order[] {
    return [...this.orders.values()].reverse().map((order) => ({ ...order }));
  }

  /** Fills, newest first. */
  fills(): UserTrade[] {
    return [...this.trades].reverse();
  }

  balance(): Balance {
    const locked = round(this.reservedCash(), 6);
    return { currency: 'USDC', total: round(this.cash, 6), available: round(this.cash - locked, 6), locked };
  }

  positions(): Position[] {
    return [...this.holdings.values()]
      .filter((holding) => holding.size > 1e-9)
      .map((holding) => {
        const found = this.venue.catalog.outcome(holding.outcomeId)!;
        const entryPrice = holding.cost / holding.size;
        return {
          marketId: holding.marketId,
          outcomeId: holding.outcomeId,
          outcomeLabel: found.outcome.label,
          size: round(holding.size, 6),
          entryPrice: round(entryPrice, 6),
          currentPrice: priceOf(found.outcome),
          unrealizedPnL: round((priceOf(found.outcome) - entryPrice) * holding.size, 6),
          realizedPnL: round(holding.realized, 6),
        };
      });
  }

  private ensureCovered(params: CreateOrderParams, cost: number): void {
    if (params.side === 'buy') {
      const available = this.cash - this.reservedCash();
      if (cost > available + 1e-9) {
        throw new PredgateError('INSUFFICIENT_FUNDS', `The order needs ${round(cost, 2)} USDC; ${round(available, 2)} available`, {
          exchange: venueId,
          detail: { requested: round(cost, 6), available: round(available, 6) },
        });
      }
      return;
    }
    const held = this.holdings.get(params.outcomeId)?.size ?? 0;
    const free = held - this.reservedShares(params.outcomeId);
    if (params.amount > free + 1e-9) {
      throw new PredgateError('INSUFFICIENT_FUNDS', `Selling ${params.amount} shares needs them held; ${round(free, 6)} free`, {
        exchange: venueId,
        detail: { requested: params.amount, available: round(free, 6) },
      });
    }
  }

  private record(order: Order, amount: number, price: number, fee: number): void {
    const holding = this.holdings.get(order.outcomeId) ?? {
      marketId: order.marketId,
      outcomeId: order.outcomeId,
      size: 0,
      cost: 0,
      realized: 0,
    };
    if (order.side === 'buy') {
      this.cash -= amount * price + fee;
      holding.size += amount;
      holding.cost += amount * price;
    } else {
      const averageCost = holding.cost / holding.size;
      this.cash += amount * price - fee;
      holding.realized += (price - averageCost) * amount;
      holding.cost -= averageCost * amount;
      holding.size -= amount;
    }
    this.holdings.set(order.outcomeId, holding);
    this.trades.push({
      id: `${order.id}-fill`,
      orderId: order.id,
      marketId: order.marketId,
      outcomeId: order.outcomeId,
      timestamp: order.timestamp,
      price: round(price, 6),
      amount,
      side: order.side,
      fee,
    });
  }

  private reservedCash(): number {
    let reserved = 0;
    for (const order of this.orders.values()) {
      if (order.status === 'open' && order.side === 'buy') reserved += order.remaining * (order.price ?? 0);
    }
    return reserved;
  }

  private reservedShares(outcomeId: string): number {
    let reserved = 0;
    for (const order of this.orders.values()) {
      if (order.status === 'open' && order.side === 'sell' && order.outcomeId === outcomeId) reserved += order.remaining;
    }
    return reserved;
  }
}

/** The worst price a market order may fill at: `slippage_pct` from the best price, or anything without it. */
function slippageBound(params: CreateOrderParams, best: number | undefined): number | undefined {
  if (params.slippage_pct === undefined || best === undefined) return undefined;
  const factor = params.side === 'buy' ? 1 + params.slippage_pct / 100 : 1 - params.slippage_pct / 100;
  return round(best * factor, 6);
}

/** The order's size in shares: a `quote` amount is collateral, bought at the limit price or the best price. */
function sharesOf(params: CreateOrderParams, price: number | undefined): number {
  if (params.denom !== 'quote') return params.amount;
  if (price === undefined || price <= 0) {
    throw new PredgateError('NO_LIQUIDITY', 'No price to turn a quote amount into shares', { exchange: venueId });
  }
  return round(params.amount / price, 6);
}
