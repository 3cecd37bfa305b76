import { PredgateError, collectNumberedPages, invalidArgument, missingCredentials } from '@predgate/core';
import type { Credentials, MyTradesParams, Order, OrderHistoryParams, Position, UserTrade } from '@predgate/core';
import { pageSize } from '../api/client.js';
import type { OpinionApi } from '../api/client.js';
import type { RawOrder } from '../api/schemas.js';
import { toOrder, toPosition, toUserTrade } from '../normalize/account.js';
import { venue } from '../venue.js';
import type { MarketTokenCache } from './market-tokens.js';

/** Upper bound on pages (20 items each) one account call reads. */
const maxPages = 50;

/** Order-list status filters: open is 1; closed is filled, cancelled, expired and failed. */
const openStatus = '1';
const closedStatuses = '2,3,4,5';

/**
 * The account's orders (by API key), fills and positions (by wallet: the
 * `funderAddress` Safe that holds the funds, or an address the caller names).
 */
export type AccountReads = ReturnType<typeof accountReads>;

export function accountReads(api: OpinionApi, tokens: MarketTokenCache, credentials: Credentials | undefined) {
  function walletOf(address: string | undefined): string {
    const wallet = address ?? credentials?.funderAddress;
    if (!wallet) throw missingCredentials(venue, ['funderAddress']);
    if (!/^0x[0-9a-fA-F]{40}$/.test(wallet)) throw invalidArgument('address', `"address" must be a 0x-prefixed 20-byte address, got "${wallet}"`);
    return wallet;
  }

  const withOutcome = async (raw: RawOrder): Promise<Order> => toOrder(raw, await tokens.tokenOf(String(raw.marketId), raw.outcomeSide));

  async function orders(filter: { status?: string; marketId?: string | undefined; limit?: number | undefined }): Promise<Order[]> {
    const raw = await collectNumberedPages(
      async (page, limit) =>
        (await api.orders({ page, limit, ...(filter.status ? { status: filter.status } : {}), ...(filter.marketId ? { marketId: filter.marketId } : {}) }))
          .list ?? [],
      { pageSize, maxPages, ...(filter.limit !== undefined ? { limit: filter.limit } : {}) },
    );
    return Promise.all(raw.map(withOutcome));
  }

  return {
    fetchOpenOrders: (marketId?: string) => orders({ status: openStatus, marketId }),
    fetchClosedOrders: (params: OrderHistoryParams = {}) => orders({ status: closedStatuses, marketId: params.marketId, limit: params.limit }),
    fetchAllOrders: (params: OrderHistoryParams = {}) => orders({ marketId: params.marketId, limit: params.limit }),

    async fetchOrder(orderId: string): Promise<Order> {
      const raw = await api.order(orderId);
      if (!raw) throw new PredgateError('ORDER_NOT_FOUND', `Order not found on ${venue}: ${orderId}`, { exchange: venue, detail: { orderId } });
      return withOutcome(raw);
    },

    async fetchMyTrades(params: MyTradesParams = {}): Promise<UserTrade[]> {
      const wallet = walletOf(undefined);
      const raw = await collectNumberedPages(
        async (page, limit) => (await api.userTrades(wallet, { page, limit, ...(params.marketId ? { marketId: params.marketId } : {}) })).list ?? [],
        // An outcome filter is applied here, so every page the venue has may be needed.
        { pageSize, maxPages, ...(params.limit !== undefined && params.outcomeId === undefined ? { limit: params.limit } : {}) },
      );
      const trades = await Promise.all(raw.map(async (trade) => toUserTrade(trade, await tokens.tokenOf(String(trade.marketId), trade.outcomeSide))));
      const kept = params.outcomeId === undefined ? trades : trades.filter((trade) => trade.outcomeId === params.outcomeId);
      return params.limit === undefined ? kept : kept.slice(0, params.limit);
    },

    async fetchPositions(address?: string): Promise<Position[]> {
      const wallet = walletOf(address);
      const raw = await collectNumberedPages(async (page, limit) => (await api.positions(wallet, { page, limit })).list ?? [], { pageSize, maxPages });
      return raw.map(toPosition).filter((position): position is Position => position !== undefined);
    },
  };
}
