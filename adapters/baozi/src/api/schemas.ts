import { venueValue } from '@predgate/core';
import Joi from 'joi';

/** The Solana JSON-RPC answers the adapter reads (each call's `result`), naming only the members it reads. */

/** An account as `getProgramAccounts`, `getAccountInfo` and `getMultipleAccounts` give it, data as base64. */
export interface RawAccount {
  data: [string, 'base64'];
  owner: string;
}

export interface KeyedAccount {
  pubkey: string;
  account: RawAccount;
}

/** A base58 public key as the RPC sends it. */
const publicKey = Joi.string().pattern(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'base58 public key');
/** A market account is about 1 KB; a generous bound keeps a hostile RPC from handing us gigabytes to decode. */
const account = Joi.object({
  data: Joi.array().ordered(Joi.string().allow('').max(64_000).required(), Joi.string().valid('base64').required()).length(2).required(),
  owner: publicKey.required(),
});
/** Checked account by account: an entry that is not one (no data, a bad owner) is left out as drift named by its pubkey, the rest read. */
export const keyedAccounts = venueValue
  .items(Joi.object({ pubkey: publicKey.required(), account: account.required() }), { id: 'pubkey' })
  .max(200_000)
  .required();

export interface RawInstruction {
  programIdIndex: number;
  accounts: number[];
  /** base58 */
  data: string;
}

export interface RawTransaction {
  blockTime: number | null;
  meta: { err: unknown; fee: number; loadedAddresses?: { writable: string[]; readonly: string[] } } | null;
  transaction: { signatures: string[]; message: { accountKeys: string[]; instructions: RawInstruction[] } };
}

const index = Joi.number().integer().min(0).max(255);
export const transaction = Joi.object({
  blockTime: Joi.number().integer().min(0).allow(null).required(),
  meta: Joi.object({
    err: Joi.any(),
    fee: venueValue.amount().required(),
    loadedAddresses: Joi.object({ writable: Joi.array().items(publicKey).required(), readonly: Joi.array().items(publicKey).required() }),
  })
    .allow(null)
    .required(),
  transaction: Joi.object({
    signatures: Joi.array().items(Joi.string().max(100)).min(1).required(),
    message: Joi.object({
      accountKeys: Joi.array().items(publicKey).max(256).required(),
      instructions: Joi.array()
        .items(
          Joi.object({ programIdIndex: index.required(), accounts: Joi.array().items(index).max(256).required(), data: Joi.string().max(2000).required() }),
        )
        .max(64)
        .required(),
    }).required(),
  }).required(),
});

/** `getAccountInfo`: one account, or null when nothing lives at the address. */
export const accountInfo = Joi.object({ value: account.allow(null).required() }).required();
/** `getMultipleAccounts`: one entry per key asked, in order. */
export const multipleAccounts = (count: number) =>
  Joi.object({
    value: Joi.array().items(account.allow(null)).length(count).required(),
  }).required();
export const latestBlockhash = Joi.object({ value: Joi.object({ blockhash: publicKey.required() }).required() }).required();
export const signature = Joi.string().max(100).required();
export const balance = Joi.object({ value: venueValue.numeric().required() }).required();
