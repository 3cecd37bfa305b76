import { PredgateError, checkPayload, isPredgateError, mapVenueFailure, venueValue } from '@predgate/core';
import type { VenueFailure, VenueHttpClient } from '@predgate/core';
import Joi from 'joi';

/**
 * Solana JSON-RPC 2.0 over the core HTTP client: every call is a POST of
 * `{jsonrpc, id, method, params}` to the configured RPC URL. The `id` is the
 * method name, so a request's body is the same on every run (recorded
 * fixtures pair requests by body). A JSON-RPC `error` inside an HTTP 200 is
 * an error like any other.
 */

export const programId = 'FWyTPzm5cfJwRKzfkscxozatSxF6Qu78JQovQUwKPruJ';

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
const keyedAccounts = Joi.array()
  .items(Joi.object({ pubkey: publicKey.required(), account: account.required() }))
  .max(200_000)
  .required();

/** `getProgramAccounts` returns every market ever created in one answer: allow it room. */
const programAccountsBodyBytes = 128 * 1024 * 1024;

/** The public RPC's window is about 10 seconds per IP and method; a JSON-RPC rate-limit error carries no Retry-After. */
const defaultRetryAfter = 10;

/** Only these JSON-RPC codes say something a caller can act on; the rest mean the RPC could not answer. */
const rateLimitCodes = new Set([429, -32005]);

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
      call<{ value: RawAccount | null }>(
        'getAccountInfo',
        [pubkey, { commitment: 'confirmed', encoding: 'base64' }],
        Joi.object({ value: account.allow(null).required() }).required(),
      ).then(({ value }) => value),
    /** Several accounts in one call, in the order asked (null where nothing lives). */
    multipleAccounts: (pubkeys: string[]) =>
      call<{ value: Array<RawAccount | null> }>(
        'getMultipleAccounts',
        [pubkeys, { commitment: 'confirmed', encoding: 'base64' }],
        Joi.object({
          value: Joi.array().items(account.allow(null)).length(pubkeys.length).required(),
        }).required(),
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
      call<{ value: { blockhash: string } }>(
        'getLatestBlockhash',
        [{ commitment: 'confirmed' }],
        Joi.object({ value: Joi.object({ blockhash: publicKey.required() }).required() }).required(),
      ).then(({ value }) => value.blockhash),
    /** Sends a signed transaction (base64) once, with preflight; the answer is its signature. */
    sendTransaction: (wire: string) =>
      call<string>('sendTransaction', [wire, { encoding: 'base64', preflightCommitment: 'confirmed' }], Joi.string().max(100).required(), { write: true }),
    /** Lamports held by a wallet, exactly: the RPC sends a bare integer, read as its digits past 2^53. */
    balance: (pubkey: string) =>
      call<{ value: number | string }>('getBalance', [pubkey, { commitment: 'confirmed' }], Joi.object({ value: venueValue.numeric().required() }).required(), {
        exactIntegers: true,
      }).then(({ value }) => value),
  };
}

export type SolanaRpc = ReturnType<typeof solanaRpc>;

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
const transaction = Joi.object({
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

/**
 * An HTTP error answer: the status decides, and a JSON-RPC error body inside
 * it (the public RPC's 429 has one) gives the message and the code.
 */
export function mapHttpError(failure: VenueFailure): PredgateError {
  const error = rpcErrorOf(failure.body);
  if (!error) return mapVenueFailure(failure, failure.status === 429 ? { detail: { retryAfter: defaultRetryAfter } } : {});
  const code = rateLimitCodes.has(error.code) || failure.status === 429 ? 'RATE_LIMIT_EXCEEDED' : error.code === 410 ? 'EXCHANGE_NOT_AVAILABLE' : undefined;
  const mapped = mapVenueFailure(failure, {
    ...(code ? { code } : {}),
    message: `${failure.venue}: ${error.message}`,
    detail: { rpcCode: error.code, venueMessage: error.message, ...(code === 'RATE_LIMIT_EXCEEDED' ? { retryAfter: defaultRetryAfter } : {}) },
  });
  // A Retry-After the RPC did send wins over the default.
  const header = failure.headers['retry-after'];
  if (code === 'RATE_LIMIT_EXCEEDED' && header !== undefined) {
    const seconds = Number(Array.isArray(header) ? header[0] : header);
    if (Number.isFinite(seconds) && seconds >= 0) (mapped.detail as Record<string, unknown>).retryAfter = Math.ceil(seconds);
  }
  return mapped;
}

interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

function rpcErrorOf(body: unknown): RpcError | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error = (body as { error: unknown }).error;
  if (typeof error !== 'object' || error === null) return { code: 0, message: String(error).slice(0, 300) };
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  return { code: typeof code === 'number' ? code : 0, message: typeof message === 'string' ? message.slice(0, 500) : 'JSON-RPC error', data };
}

/** A JSON-RPC error answered with HTTP 200, as a unified error naming the method. */
function rpcError(venue: string, method: string, error: RpcError, rpcUrl: string): PredgateError {
  const detail = { method, rpcCode: error.code, venueMessage: error.message };
  if (rateLimitCodes.has(error.code)) {
    return new PredgateError('RATE_LIMIT_EXCEEDED', `${venue}: the RPC refused ${method}: ${error.message}`, {
      exchange: venue,
      detail: { ...detail, retryAfter: defaultRetryAfter },
    });
  }
  if (error.code === 410) return methodDisabled(venue, method, error.message, rpcUrl, detail);
  if (method === 'sendTransaction') return transactionRefused(venue, error, detail);
  if (error.code === -32602) {
    return new PredgateError('BAD_REQUEST', `${venue}: the RPC refused the parameters of ${method}: ${error.message}`, { exchange: venue, detail });
  }
  return new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue}: the RPC could not answer ${method}: ${error.message}`, { exchange: venue, detail });
}

/** Anchor error codes of the program that say the bet itself is wrong (its size), rather than the market's state. */
const orderErrors = new Set([6020, 6041]);
const programErrors: Record<number, string> = {
  6000: 'Unauthorized',
  6001: 'Market not found',
  6015: 'Market is not open for betting',
  6018: 'Betting is closed',
  6020: 'Bet amount too small',
  6040: 'Betting is frozen',
  6041: 'Bet amount too large',
};

/**
 * A transaction the RPC would not send (preflight simulation failed): the
 * program's error code from `data.err` (`{InstructionError: [i, {Custom: n}]}`)
 * or the log's `custom program error: 0x..`, and funds errors from the logs.
 */
function transactionRefused(venue: string, error: RpcError, detail: Record<string, unknown>): PredgateError {
  const data = (typeof error.data === 'object' && error.data !== null ? error.data : {}) as { err?: unknown; logs?: unknown };
  const logs = Array.isArray(data.logs) ? data.logs.filter((line): line is string => typeof line === 'string').slice(-20) : [];
  const text = [error.message, ...logs].join('\n');
  const custom = customCodeOf(data.err) ?? hexCodeOf(text);
  const programError = custom === undefined ? undefined : programErrors[custom];
  const full = { ...detail, ...(custom === undefined ? {} : { programError: custom }), ...(logs.length > 0 ? { logs } : {}) };
  const reason = programError ? `${programError} (program error ${custom})` : error.message;
  if (/insufficient (lamports|funds)|no record of a prior credit/i.test(text)) {
    return new PredgateError('INSUFFICIENT_FUNDS', `${venue}: the wallet cannot pay for this bet: ${error.message}`, { exchange: venue, detail: full });
  }
  if (custom !== undefined && orderErrors.has(custom)) {
    return new PredgateError('INVALID_ORDER', `${venue}: the program refused the bet: ${reason}`, { exchange: venue, detail: full });
  }
  return new PredgateError('BAD_REQUEST', `${venue}: the program refused the bet: ${reason}`, { exchange: venue, detail: full });
}

function customCodeOf(err: unknown): number | undefined {
  const failure = (err as { InstructionError?: unknown } | null)?.InstructionError;
  const custom = Array.isArray(failure) ? (failure[1] as { Custom?: unknown } | null)?.Custom : undefined;
  return typeof custom === 'number' ? custom : undefined;
}

function hexCodeOf(text: string): number | undefined {
  const match = /custom program error: 0x([0-9a-f]{1,8})/i.exec(text);
  return match ? Number.parseInt(match[1]!, 16) : undefined;
}

function methodDisabled(venue: string, method: string, message: string, rpcUrl: string, detail: Record<string, unknown>): PredgateError {
  return new PredgateError(
    'EXCHANGE_NOT_AVAILABLE',
    `${venue}: the RPC at ${new URL(rpcUrl).host} has disabled ${method} (${message}); configure an RPC that serves it in the adapter's rpcUrl`,
    { exchange: venue, detail },
  );
}

/** HTTP-level refusals carry no method of their own (every call goes to the same URL): the call names it. */
function namingMethod(error: unknown, method: string, rpcUrl: string): unknown {
  if (!isPredgateError(error) || error.detail === null) return error;
  if (error.detail.rpcCode === 410)
    return methodDisabled(error.exchange ?? 'baozi', method, String(error.detail.venueMessage), rpcUrl, { ...error.detail, method });
  error.detail.method = method;
  return error;
}
