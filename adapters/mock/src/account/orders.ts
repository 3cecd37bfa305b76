import type { BuiltOrder, CreateOrderParams, MyTradesParams, OrderHistoryParams } from '@predgate/core';
import { venueId } from '../venue.js';
import type { MockContext } from '../context.js';
import { builtOrderExpired, notBuiltHere } from '../errors.js';
import { history } from '../reads/pages.js';
import { outcomeOf } from '../simulation/venue.js';

export const createOrder = async ({ account }: MockContext, params: CreateOrderParams) => account.place(params);

export async function buildOrder({ venue, clock }: MockContext, params: CreateOrderParams): Promise<BuiltOrder> {
  outcomeOf(venue, params.outcomeId);
  const expiresAt = clock.now() + 60_000;
  return { exchange: venueId, params, signedOrder: { ...params, expiresAt }, raw: { params, expiresAt } };
}

export async function submitOrder({ account, clock }: MockContext, built: BuiltOrder) {
  const expiresAt = Number(built.raw.expiresAt);
  if (built.exchange !== venueId || !Number.isFinite(expiresAt)) throw notBuiltHere();
  const expiry = built.expiry ?? built.params.expiry;
  if (expiry !== undefined && new Date(expiry).getTime() < clock.now())
    throw builtOrderExpired('The order’s expiry has passed: it was not placed', new Date(expiry).getTime());
  if (expiresAt < clock.now()) throw builtOrderExpired('The built order has expired: build it again', expiresAt);
  return account.place(built.params);
}

export const cancelOrder = async ({ account }: MockContext, orderId: string) => account.cancel(orderId);
export const fetchOrder = async ({ account }: MockContext, orderId: string) => account.order(orderId);

export const fetchOpenOrders = async ({ account }: MockContext, marketId?: string) =>
  account.allOrders().filter((order) => order.status === 'open' && (marketId === undefined || order.marketId === marketId));

export const fetchClosedOrders = async ({ account }: MockContext, params: OrderHistoryParams = {}) =>
  history(
    account.allOrders().filter((order) => order.status !== 'open' && order.status !== 'pending'),
    params,
  );

export const fetchAllOrders = async ({ account }: MockContext, params: OrderHistoryParams = {}) => history(account.allOrders(), params);

export const fetchMyTrades = async ({ account }: MockContext, params: MyTradesParams = {}) =>
  history(
    account.fills().filter((trade) => params.outcomeId === undefined || trade.outcomeId === params.outcomeId),
    params,
  );

export const fetchPositions = async ({ account }: MockContext) => account.positions();
export const fetchBalance = async ({ account }: MockContext) => [account.balance()];
