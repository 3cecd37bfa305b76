import { compact, text, toNumber } from '@predgate/core';
import type { Trade, TradeSide, UserTrade } from '@predgate/core';
import type { RawFill, RawTrade } from '../api/types.js';
import { outcomeIdOf } from '../ids.js';
import type { ContractSide } from '../ids.js';
import { directionOf } from './direction.js';
import { complement, countField, dollarsField, timeMs } from './numbers.js';

/**
 * A print on the public tape, seen from one side of the market: its price on
 * that side, and `buy` when the taker bought that side's contract.
 * Undefined for a record missing its time, price or size.
 */
export function normalizeTrade(raw: RawTrade, side: ContractSide, outcomeId: string): Trade | undefined {
  const price = sidePrice(raw, side);
  const amount = countField(raw, 'count');
  const timestamp = timeMs(raw.created_time);
  if (price === undefined || amount === undefined || amount <= 0 || timestamp === undefined) return undefined;
  const taker = raw.taker_outcome_side ?? raw.taker_side;
  const takerSide: TradeSide = taker === 'yes' || taker === 'no' ? (taker === side ? 'buy' : 'sell') : 'unknown';
  return { id: raw.trade_id, timestamp, price, amount, side: takerSide, outcomeId };
}

/** One of the account's fills, in the contract it traded, at that contract's price. */
export function normalizeFill(raw: RawFill): UserTrade | undefined {
  const id = text(raw.fill_id) ?? text(raw.trade_id);
  const ticker = text(raw.ticker) ?? text(raw.market_ticker);
  const direction = directionOf(raw);
  const contract = direction?.contract ?? 'yes';
  const price = sidePrice(raw, contract);
  const amount = countField(raw, 'count');
  const timestamp = fillTime(raw);
  if (id === undefined || ticker === undefined || price === undefined || amount === undefined || amount <= 0 || timestamp === undefined) {
    return undefined;
  }
  return compact<UserTrade>({
    id,
    timestamp,
    price,
    amount,
    side: direction?.action ?? 'unknown',
    outcomeId: outcomeIdOf(ticker, contract),
    orderId: text(raw.order_id),
    marketId: ticker,
    fee: toNumber(raw.fee_cost),
  });
}

/** When a fill happened: `created_time`, else the legacy `ts` in Unix seconds. */
export function fillTime(raw: RawFill): number | undefined {
  const legacySeconds = toNumber(raw.ts);
  return timeMs(raw.created_time) ?? (legacySeconds === undefined ? undefined : legacySeconds * 1000);
}

/** The price of one side's contract: its own field, else the complement of the other side's. */
export function sidePrice(fields: Readonly<Record<string, unknown>>, side: ContractSide): number | undefined {
  const own = dollarsField(fields, `${side}_price`);
  if (own !== undefined) return own;
  const other = dollarsField(fields, `${side === 'yes' ? 'no' : 'yes'}_price`);
  return other === undefined ? undefined : complement(other);
}
