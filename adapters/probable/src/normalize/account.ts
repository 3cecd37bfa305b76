import { PredgateError, text, toEpochMs, toNumber } from '@predgate/core';
import type { Order, UserTrade } from '@predgate/core';
import { orderStatuses } from './order-status.js';
import type { RawOrder, RawTrade } from '../api/private.js';
import { venueId } from '../venue.js';

/**
 * Probable needs an order's token id beside its id to read or cancel it, so
 * the unified order id is `{orderId}:{tokenId}` (as pmxt's is).
 */
export function orderIdOf(orderId: string | number, tokenId: string): string {
  return `${orderId}:${tokenId}`;
}

/** `{orderId}:{tokenId}` back into its parts; VALIDATION_ERROR naming `orderId` otherwise. */
export function parseOrderId(id: string): { orderId: string; tokenId: string } {
  const match = /^(\d{1,30}):(\d{1,100})$/.exec(id);
  if (!match) {
    throw new PredgateError(
      'VALIDATION_ERROR',
      `${venueId} order ids are "{orderId}:{tokenId}" as this adapter returns them (the venue needs the token to find an order)`,
      { exchange: venueId, detail: { argument: 'orderId', path: 'orderId' } },
    );
  }
  return { orderId: match[1]!, tokenId: match[2]! };
}

/** The token of an order: `ctfTokenId` (what the SDK cancels with) or `tokenId`. */
export function tokenOf(raw: RawOrder, known?: string): string {
  const token = text(raw.ctfTokenId) ?? text(raw.tokenId) ?? known;
  if (!token) {
    throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venueId} answered an order without its token id (ctfTokenId or tokenId)`, {
      exchange: venueId,
      detail: { field: 'ctfTokenId', drift: true },
    });
  }
  return token;
}

/**
 * An order as the unified model has it. The venue's order names its token and
 * a `symbol`, not the market: `marketId` is the market the caller named where
 * known, else the venue's `symbol`, else the token id.
 */
export function toOrder(raw: RawOrder, context: { marketId?: string | undefined; tokenId?: string | undefined } = {}): Order {
  const tokenId = tokenOf(raw, context.tokenId);
  // The payload check admits only the statuses mapped.
  const status = orderStatuses[raw.status.toUpperCase()]!;
  const amount = toNumber(raw.origQty)!;
  const filled = Math.min(amount, toNumber(raw.executedQty)!);
  const limitPrice = toNumber(raw.price)!;
  const averagePrice = toNumber(raw.avgPrice);
  const price = limitPrice > 0 ? limitPrice : averagePrice !== undefined && averagePrice > 0 ? averagePrice : undefined;
  const limit = raw.type?.toUpperCase() === 'LIMIT' || ['GTC', 'GTD'].includes(raw.timeInForce?.toUpperCase() ?? '');
  return {
    id: orderIdOf(raw.orderId, tokenId),
    marketId: context.marketId ?? text(raw.symbol) ?? tokenId,
    outcomeId: tokenId,
    side: raw.side.toLowerCase() === 'buy' ? 'buy' : 'sell',
    type: limit ? 'limit' : 'market',
    ...(price === undefined ? {} : { price }),
    amount,
    status,
    filled,
    remaining: status === 'open' || status === 'pending' ? Math.max(0, amount - filled) : 0,
    timestamp: (raw.time ?? raw.updateTime)!,
  };
}

/** One fill of one token; `side` is the account's (`buyer`), the fee is the venue's `commission`. */
export function toUserTrade(raw: RawTrade, tokenId: string, marketId: string | undefined): UserTrade {
  const fee = toNumber(raw.commission);
  return {
    id: String(raw.id),
    timestamp: toEpochMs(raw.time)!,
    price: toNumber(raw.price)!,
    amount: toNumber(raw.qty)!,
    side: raw.buyer ? 'buy' : 'sell',
    outcomeId: tokenId,
    ...(raw.orderId == null ? {} : { orderId: orderIdOf(raw.orderId, tokenId) }),
    ...(marketId === undefined ? {} : { marketId }),
    ...(fee === undefined ? {} : { fee }),
  };
}
