import { checkPayload } from '@predgate/core';
import type { VenueHttpClient } from '@predgate/core';
import Joi from 'joi';
import { programId } from '../venue.js';
import { namingMethod, rpcError, rpcErrorOf } from '../errors.js';
import { accountInfo, balance, keyedAccounts, latestBlockhash, multipleAccounts, signature, transaction } from './schemas.js';
import type { KeyedAccount, RawAccount, RawTransaction } from './schemas.js';

/**
 * Solana JSON-RPC 2.0 over the core HTTP client: every call is a POST of
 * `{jsonrpc, id, method, params}` to the configured RPC URL. The `id` is the
 * method name, so a request's body is the same on every run (recorded
 * fixtures pair requests by body). A JSON-RPC `error` inside an HTTP 200 is
 * an error like any other.
 */

/** `getProgramAccounts` returns every market ever created in one answer: allow it room. */
const programAccountsBodyBytes = 128 * 1024 * 1024;

export type Filter = { memcmp: { offset: number; bytes: string } };

export function solanaRpc(http: VenueHttpClient, rpcUrl: string) {
  const venue = http.venue;

  async function call<T>(
    method: string,
    params: unknown[],
    result: Joi.Schema,
    options: { maxBodyBytes?: number; write?: boolean; exactIntegers?: boolean } = {},
  ): Promise<T> {
    let answer: unknown;
    try {
      answer = await http.json({
        method: 'POST',
        url: rpcUrl,
        body: { jsonrpc: '2.0', id: method, method, params },
        // Reads may be sent again; a transaction is sent once, never retried behind the caller's back.
        idempotent: !options.write,
        ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
        ...(options.exactIntegers ? { exactIntegers: true } : {}),
      });
    } catch (error) {
      throw namingMethod(error, method, rpcUrl);
    }
    const error = rpcErrorOf(answer);
    if (error) throw rpcError(venue, method, error, rpcUrl);
    return checkPayload<{ result: T }>(Joi.object({ result }).required(), answer, { venue, endpoint: method }).result;
  }

  return {
    /** Every account of the program whose data starts with the discriminator (and matches the further filters). */
    programAccounts: (filters: Filter[]) =>
      call<KeyedAccount[]>('getProgramAccounts', [programId, { commitment: 'confirmed', encoding: 'base64', filters }], keyedAccounts, {
        maxBodyBytes: programAccountsBodyBytes,
      }),
    /** One account, or null when nothing lives at the address. */
    accountInfo: (pubkey: string) =>
      call<{ value: RawAccount | null }>('getAccountInfo', [pubkey, { commitment: 'confirmed', encoding: 'base64' }], accountInfo).then(({ value }) => value),
    /** Several accounts in one call, in the order asked (null where nothing lives). */
    multipleAccounts: (pubkeys: string[]) =>
      call<{ value: Array<RawAccount | null> }>(
        'getMultipleAccounts',
        [pubkeys, { commitment: 'confirmed', encoding: 'base64' }],
        multipleAccounts(pubkeys.length),
      ).then(({ value }) => value),
    /** A confirmed transaction by signature (legacy or version 0, `json` encoding); null when the node knows none. */
    transaction: (signature: string) =>
      call<RawTransaction | null>(
        'getTransaction',
        [signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 }],
        transaction.allow(null).required(),
      ),
    /** A recent blockhash for a transaction (base58). */
    latestBlockhash: () =>
      call<{ value: { blockhash: string } }>('getLatestBlockhash', [{ commitment: 'confirmed' }], latestBlockhash).then(({ value }) => value.blockhash),
    /** Sends a signed transaction (base64) once, with preflight; the answer is its signature. */
    sendTransaction: (wire: string) =>
      call<string>('sendTransaction', [wire, { encoding: 'base64', preflightCommitment: 'confirmed' }], signature, { write: true }),
    /** Lamports held by a wallet, exactly: the RPC sends a bare integer, read as its digits past 2^53. */
    balance: (pubkey: string) =>
      call<{ value: number | string }>('getBalance', [pubkey, { commitment: 'confirmed' }], balance, {
        exactIntegers: true,
      }).then(({ value }) => value),
  };
}

export type SolanaRpc = ReturnType<typeof solanaRpc>;
