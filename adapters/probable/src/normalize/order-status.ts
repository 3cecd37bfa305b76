import type { OrderStatus } from '@predgate/core';

/** Probable's Binance-style order statuses in the unified vocabulary; any other is drift. */
export const orderStatuses: Record<string, OrderStatus> = {
  NEW: 'open',
  OPEN: 'open',
  PARTIALLY_FILLED: 'open',
  PENDING_NEW: 'pending',
  FILLED: 'filled',
  TRADE: 'filled',
  CANCELED: 'cancelled',
  CANCELLED: 'cancelled',
  PENDING_CANCEL: 'open',
  EXPIRED: 'cancelled',
  REJECTED: 'rejected',
};

export const orderStatusWords = Object.keys(orderStatuses);
