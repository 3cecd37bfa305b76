import { PredgateError, toNumber } from '@predgate/core';
import type { Balance, Clock, Credentials, MyTradesParams, Order, Position, UserTrade } from '@predgate/core';
import type { ClobPrivateApi } from '../api/clob-private.js';
import type { DataApi } from '../api/data.js';
import type { Query } from '../api/client.js';
import type { ClobOpenOrder } from '../api/types.js';
import { amountDecimals } from '../auth/contracts.js';
import { fundsAddressOf, signatureTypeOf } from '../auth/credentials.js';
import { normalizeOrder, normalizePosition, normalizeUserTrades } from '../normalize/account.js';
import { venueId } from '../venue.js';
import { isGammaId } from './identifiers.js';
import type { MarketLookup } from './lookup.js';

/** The Data API's page of positions. */
const positionsPage = 500;
const defaultMyTrades = 100;

/** The account: balance, positions, open orders and fills. */
export class AccountReads {
  constructor(
    private readonly clob: ClobPrivateApi,
    private readonly data: DataApi,
    private readonly lookup: MarketLookup,
    private readonly credentials: Credentials | undefined,
    private readonly clock: Clock,
  ) {}

  /**
   * pUSD collateral (reported as `USDC`, as pmxt does). The CLOB's balance is
   * the whole wallet; what open buy orders have promised is `locked`. A
   * public address is not enough: the balance endpoint is authenticated.
   */
  async fetchBalance(address?: string): Promise<Balance[]> {
    if (address !== undefined && !this.credentials) {
      throw new PredgateError('NOT_SUPPORTED', `${venueId}: the CLOB reports balances to their owner only; pass credentials instead of an address`, {
        exchange: venueId,
        detail: { argument: 'address' },
      });
    }
    const answer = await this.clob.collateralBalance(signatureTypeOf(this.credentials ?? {}));
    // Summed in micro-units, as the venue counts, so no float noise creeps into the totals.
    const scale = 10 ** amountDecimals;
    const totalMicro = toNumber(answer.balance) ?? 0;
    const lockedMicro = (await this.clob.openOrders({}))
      .filter((order) => order.side?.toUpperCase() === 'BUY')
      .reduce((sum, order) => sum + Math.round(unfilled(order) * (toNumber(order.price) ?? 0) * scale), 0);
    return [
      {
        currency: 'USDC',
        total: totalMicro / scale,
        available: Math.max(0, totalMicro - lockedMicro) / scale,
        locked: lockedMicro / scale,
      },
    ];
  }

  /** Positions of `address`, or of the account's funder; public, so an address needs no credentials. */
  async fetchPositions(address?: string): Promise<Position[]> {
    const user = address ?? fundsAddressOf(this.credentials);
    const positions: Position[] = [];
    for (let offset = 0; ; offset += positionsPage) {
      const page = await this.data.positions({ user, sizeThreshold: 0, limit: positionsPage, ...(offset > 0 ? { offset } : {}) });
      positions.push(...page.map(normalizePosition).filter((position): position is Position => position !== undefined));
      if (page.length < positionsPage) return positions;
    }
  }

  async fetchOpenOrders(marketId?: string): Promise<Order[]> {
    const query: Query = marketId === undefined ? {} : { market: await this.conditionIdOf(marketId) };
    return this.normalizeOrders(await this.clob.openOrders(query));
  }

  async fetchOrder(orderId: string): Promise<Order> {
    const order = await this.clob.order(orderId);
    const normalized = order?.id ? normalizeOrder(order, this.clock.now()) : undefined;
    if (!normalized) {
      throw new PredgateError('ORDER_NOT_FOUND', `Order not found: ${orderId}`, { exchange: venueId, detail: { orderId } });
    }
    return normalized;
  }

  /** The account's fills from the CLOB's trade ledger, newest first. */
  async fetchMyTrades(params: MyTradesParams = {}): Promise<UserTrade[]> {
    const account = fundsAddressOf(this.credentials);
    const limit = params.limit ?? defaultMyTrades;
    const query: Query = {
      maker_address: account,
      market: params.marketId === undefined ? undefined : await this.conditionIdOf(params.marketId),
      asset_id: params.outcomeId,
      after: params.since === undefined ? undefined : Math.floor(params.since.getTime() / 1000),
      before: params.until === undefined ? undefined : Math.floor(params.until.getTime() / 1000),
    };
    const trades = await this.clob.trades(query, limit, params.cursor);
    return trades.flatMap((trade) => normalizeUserTrades(trade, account)).slice(0, limit);
  }

  private normalizeOrders(orders: ClobOpenOrder[]): Order[] {
    return orders.map((order) => normalizeOrder(order, this.clock.now())).filter((order): order is Order => order !== undefined);
  }

  /** The CLOB keys orders and fills by condition id; a Gamma market id is translated. */
  private async conditionIdOf(marketId: string): Promise<string> {
    if (!isGammaId(marketId)) return marketId;
    const record = await this.lookup.require(marketId);
    return record.market.conditionId ?? marketId;
  }
}

function unfilled(order: ClobOpenOrder): number {
  return Math.max(0, (toNumber(order.original_size) ?? 0) - (toNumber(order.size_matched) ?? 0));
}
