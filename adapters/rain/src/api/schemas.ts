import { venueValue } from '@predgate/core';
import Joi from 'joi';

/** Rain's answers: the raw shapes the adapter reads, and the schemas naming only those members. */

export interface RawOption {
  optionName: string;
  choiceIndex?: number;
  percentage?: number | string | null;
  optionImage?: string | null;
}

export interface RawPool {
  _id: string;
  question: string;
  poolDescription?: string | null;
  tags?: string[] | null;
  options: RawOption[];
  status?: string | null;
  contractAddress?: string | null;
  token?: { tokenAddress?: string | null; tokenSymbol?: string | null; tokenName?: string | null; tokenDecimals?: number | null } | null;
  startDate?: string | null;
  endDate?: string | null;
  createdAt?: string | null;
  totalVolume?: number | string | null;
  totalLiquidity?: number | string | null;
  participantCount?: number | null;
  poolOwnerWalletAddress?: string | null;
  poolOwnerNameOrWallet?: string | null;
  isPrivate?: boolean | null;
  isAiResolver?: boolean | null;
  isDisputed?: boolean | null;
  isAppealed?: boolean | null;
  winnerOption?: { decidedBy?: string | null; choiceIndex: number; createdAt?: string | null } | null;
  poolImage?: string | null;
  ipfsURL?: string | null;
}

const optional = Joi.string().allow('', null);
const address = Joi.string().pattern(/^0x[0-9a-fA-F]{40}$/, 'address');
/**
 * An integer amount in base units: a number within 2^53 or a string of digits (18-decimal RAIN amounts pass 2^53).
 * The REST answers are parsed losslessly, so a bare number past 2^53 arrives as its digits.
 */
const baseUnits = Joi.alternatives(Joi.number().integer().min(0).max(Number.MAX_SAFE_INTEGER), Joi.string().pattern(/^\d{1,78}$/, 'digits'))
  .allow(null)
  .messages({ 'alternatives.match': '{{#label}} must be an integer of base units (a number within 2^53 or a string of digits)' });

const option = Joi.object({
  optionName: Joi.string().allow('').max(1000).required(),
  choiceIndex: Joi.number().integer().min(0).max(255),
  percentage: venueValue.amount().allow(null),
  optionImage: optional,
});
export const pool = Joi.object({
  _id: Joi.string()
    .pattern(/^[0-9a-f]{24}$/, 'pool id')
    .required(),
  question: Joi.string().required(),
  poolDescription: optional,
  tags: Joi.array().items(Joi.string()).allow(null),
  options: Joi.array().items(option).min(1).max(256).required(),
  status: optional,
  contractAddress: address.allow('', null),
  token: Joi.object({
    tokenAddress: optional,
    tokenSymbol: optional,
    tokenName: optional,
    tokenDecimals: Joi.number().integer().min(0).max(36).allow(null),
  }).allow(null),
  startDate: venueValue.time().allow(null, ''),
  endDate: venueValue.time().allow(null, ''),
  createdAt: venueValue.time().allow(null, ''),
  totalVolume: baseUnits,
  totalLiquidity: baseUnits,
  participantCount: Joi.number().integer().min(0).allow(null),
  poolOwnerWalletAddress: optional,
  poolOwnerNameOrWallet: optional,
  isPrivate: Joi.boolean().allow(null),
  isAiResolver: Joi.boolean().allow(null),
  isDisputed: Joi.boolean().allow(null),
  isAppealed: Joi.boolean().allow(null),
  winnerOption: Joi.object({ decidedBy: optional, choiceIndex: Joi.number().integer().min(0).required(), createdAt: optional }).allow(null),
  poolImage: optional,
  ipfsURL: optional,
});

/** Pools read one by one: an unreadable pool is left out as drift (named by its `_id`), never the page. */
export const pools = venueValue.items(pool, { id: '_id' }).required();

/** The list answer: `{data:{pools}}` as documented, or (defensively, as Rain's SDK reads it) a bare array, `{data:[…]}` or `{pools:[…]}`. */
export function poolsOf(body: unknown): unknown {
  if (Array.isArray(body)) return body;
  const record = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const data = record.data as Record<string, unknown> | unknown[] | undefined;
  if (Array.isArray(data)) return data;
  if (data && typeof data === 'object' && 'pools' in data) return data.pools;
  if ('pools' in record) return record.pools;
  return undefined;
}

/** One pool: `{data: pool}`, or a bare pool. */
export function poolOf(body: unknown): unknown {
  const record = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  return '_id' in record ? record : record.data;
}

// --- Pool contract reads -------------------------------------------------

/** A pool's on-chain state: amounts in base units of its collateral, prices 1e18-scaled. */
export interface PoolState {
  /** Per option (by choice index); undefined where the read failed. */
  prices: Array<bigint | undefined>;
  funds: Array<bigint | undefined>;
  allFunds: bigint;
  totalLiquidity: bigint;
  endTime: bigint;
  /** The collateral's decimal count (the contract answers the count or the scale, 10^count). */
  decimals: number;
  poolState: number;
  /** 1-based winning option; 0 while unresolved. */
  winner: bigint;
}
export const rpcAnswer = Joi.array()
  .items(
    Joi.object({
      id: Joi.number().integer().min(1).required(),
      result: Joi.string().pattern(/^0x[0-9a-fA-F]*$/, 'hex'),
      error: Joi.object({ code: Joi.number(), message: Joi.string().allow('') }),
    }).or('result', 'error'),
  )
  .required();

// --- Subgraph rows --------------------------------------------------------

const digits = Joi.string().pattern(/^\d{1,78}$/, 'digits');
const row = {
  id: Joi.string().max(200).required(),
  baseAmount: digits.required(),
  optionAmount: digits.required(),
  blockTimestamp: digits.required(),
  transactionHash: optional,
};
export interface RawTradeRow {
  id: string;
  option?: string;
  orderOption?: string;
  orderPrice?: string;
  baseAmount: string;
  optionAmount: string;
  blockTimestamp: string;
  transactionHash?: string | null;
}
export interface RawTradeRows {
  enterOptions: RawTradeRow[];
  executeBuyOrders: RawTradeRow[];
  executeSellOrders: RawTradeRow[];
}
/** Subgraph rows read one by one: an unreadable row is left out as drift (named by its `id`), never the answer. */
const rows = (item: Joi.ObjectSchema) => venueValue.items(item, { id: 'id' }).required();
const orderFill = Joi.object({ ...row, orderOption: digits.required(), orderPrice: digits.required() });
export const tradeRows = Joi.object({
  enterOptions: rows(Joi.object({ ...row, option: digits.required() })),
  executeBuyOrders: rows(orderFill),
  executeSellOrders: rows(orderFill),
}).required();

/** A wallet's fills: its AMM buys, its orders filled (maker) and the orders it filled (taker), and its claims. */
export interface RawWalletRow extends RawTradeRow {
  poolAddress: string;
  orderID?: string;
}
export interface RawWalletRows {
  enterOptions: RawWalletRow[];
  executeBuyOrders: RawWalletRow[];
  executeBuyOrdersAsTaker: RawWalletRow[];
  executeSellOrders: RawWalletRow[];
  executeSellOrdersAsTaker: RawWalletRow[];
  claims: Array<{ id: string; poolAddress: string }>;
}
const pooled = { poolAddress: address.required() };
const walletFill = Joi.object({ ...row, ...pooled, orderOption: digits.required(), orderPrice: digits.required(), orderID: digits.required() });
export const walletRows = Joi.object({
  enterOptions: rows(Joi.object({ ...row, ...pooled, option: digits.required() })),
  executeBuyOrders: rows(walletFill),
  executeBuyOrdersAsTaker: rows(walletFill),
  executeSellOrders: rows(walletFill),
  executeSellOrdersAsTaker: rows(walletFill),
  claims: rows(Joi.object({ id: Joi.string().max(200).required(), ...pooled })),
}).required();
