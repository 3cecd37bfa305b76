import { fromBaseUnits, toFraction } from '@predgate/core';
import type { Trade, UserTrade } from '@predgate/core';
import type { RawPool, RawTradeRow, RawTradeRows, RawWalletRow, RawWalletRows } from '../api/schemas.js';
import { venueId } from '../venue.js';
import { restDecimals } from './pools.js';

/**
 * Trades as the taker saw them: an AMM entry is a buy at the collateral paid
 * per share; a resting buy order filled is the taker selling to it, a resting
 * sell order filled is the taker buying. Rows of zero shares are left out.
 */
export function tradesOf(rows: RawTradeRows, decimals: number, outcomeId: string): Array<Trade & { volume: number }> {
  const trade = (row: RawTradeRow, side: 'buy' | 'sell', price: number | undefined) => {
    const amount = fromBaseUnits(row.optionAmount, decimals)!;
    if (!(amount > 0) || price === undefined) return [];
    return [
      {
        id: row.id,
        timestamp: Number(row.blockTimestamp) * 1000,
        price,
        amount,
        side,
        outcomeId,
        volume: fromBaseUnits(row.baseAmount, decimals)!,
      },
    ];
  };
  const amm = (row: RawTradeRow) => (BigInt(row.optionAmount) === 0n ? undefined : toFraction(Number(row.baseAmount) / Number(row.optionAmount)));
  const limit = (row: RawTradeRow) => toFraction(fromBaseUnits(row.orderPrice, 18));
  return [
    ...rows.enterOptions.flatMap((row) => trade(row, 'buy', amm(row))),
    ...rows.executeBuyOrders.flatMap((row) => trade(row, 'sell', limit(row))),
    ...rows.executeSellOrders.flatMap((row) => trade(row, 'buy', limit(row))),
  ].sort((a, b) => b.timestamp - a.timestamp || a.id.localeCompare(b.id));
}

/**
 * A wallet's fills as its own trades, newest first: its AMM buys, its resting
 * orders filled (maker: its order's side) and the orders it filled (taker: the
 * other side). Fills in pools missing from the public list (private pools) are left out.
 */
export function walletTrades(history: RawWalletRows, byContract: Map<string, RawPool>) {
  const kinds: Array<[RawWalletRow[], 'buy' | 'sell', 'amm' | 'maker' | 'taker']> = [
    [history.enterOptions, 'buy', 'amm'],
    [history.executeBuyOrders, 'buy', 'maker'],
    [history.executeSellOrdersAsTaker, 'buy', 'taker'],
    [history.executeSellOrders, 'sell', 'maker'],
    [history.executeBuyOrdersAsTaker, 'sell', 'taker'],
  ];
  return kinds
    .flatMap(([rows, side, role]) =>
      rows.flatMap((row) => {
        const pool = byContract.get(row.poolAddress.toLowerCase());
        if (!pool) return [];
        const choice = Number(role === 'amm' ? row.option : row.orderOption);
        const shares = fromBaseUnits(row.optionAmount, restDecimals(pool))!;
        const price =
          role === 'amm'
            ? BigInt(row.optionAmount) === 0n
              ? undefined
              : toFraction(Number(row.baseAmount) / Number(row.optionAmount))
            : toFraction(fromBaseUnits(row.orderPrice, 18));
        if (!(shares > 0) || price === undefined) return [];
        const trade: UserTrade = {
          id: row.id,
          timestamp: Number(row.blockTimestamp) * 1000,
          price,
          amount: shares,
          side,
          outcomeId: `${venueId}:${pool._id}:${choice}`,
          marketId: `${venueId}:${pool._id}`,
          // The wallet's own order, named by pool, side and the contract's order number (numbers repeat across pools and sides).
          ...(role === 'maker' ? { orderId: `${row.poolAddress.toLowerCase()}:${side}:${row.orderID}` } : {}),
        };
        return [{ pool, choice, trade, row }];
      }),
    )
    .sort((a, b) => b.trade.timestamp - a.trade.timestamp || a.trade.id.localeCompare(b.trade.id));
}
