import { PredgateError, isPredgateError, mapVenueFailure } from '@predgate/core';
import { LayoutError } from './auth/solana.js';
import { venueId } from './venue.js';
import type { VenueFailure } from '@predgate/core';

/** The public RPC's window is about 10 seconds per IP and method; a JSON-RPC rate-limit error carries no Retry-After. */
const defaultRetryAfter = 10;

/** Only these JSON-RPC codes say something a caller can act on; the rest mean the RPC could not answer. */
const rateLimitCodes = new Set([429, -32005]);

/**
 * An HTTP error answer: the status decides, and a JSON-RPC error body inside
 * it (the public RPC's 429 has one) gives the message and the code.
 */
export function mapError(failure: VenueFailure): PredgateError {
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

export function rpcErrorOf(body: unknown): RpcError | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error = (body as { error: unknown }).error;
  if (typeof error !== 'object' || error === null) return { code: 0, message: String(error).slice(0, 300) };
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  return { code: typeof code === 'number' ? code : 0, message: typeof message === 'string' ? message.slice(0, 500) : 'JSON-RPC error', data };
}

/** A JSON-RPC error answered with HTTP 200, as a unified error naming the method. */
export function rpcError(venue: string, method: string, error: RpcError, rpcUrl: string): PredgateError {
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
export function namingMethod(error: unknown, method: string, rpcUrl: string): unknown {
  if (!isPredgateError(error) || error.detail === null) return error;
  if (error.detail.rpcCode === 410)
    return methodDisabled(error.exchange ?? 'baozi', method, String(error.detail.venueMessage), rpcUrl, { ...error.detail, method });
  error.detail.method = method;
  return error;
}

/** A bet the adapter refuses before sending it. */
export function invalidOrder(reason: string): PredgateError {
  return new PredgateError('INVALID_ORDER', `${venueId}: ${reason}`);
}

/** An account that does not decode with its type's layout: the program changed, not the caller's fault. */
export function layoutDrift(pubkey: string, type: string, error: unknown): PredgateError {
  const field = error instanceof LayoutError ? error.field : undefined;
  return new PredgateError(
    'EXCHANGE_NOT_AVAILABLE',
    `${venueId}: account ${pubkey} does not decode as a ${type}: ${error instanceof Error ? error.message : String(error)}`,
    {
      // `item` names the account as list drift does, so a listed account left out and its lookup say the same.
      detail: { account: pubkey, item: pubkey, type, ...(field ? { field } : {}), drift: true },
    },
  );
}

/** An id naming an account that is not a market (or no account at all). */
export function notAMarket(pubkey: string, kind: 'event' | 'market', message: string): PredgateError {
  return new PredgateError(kind === 'event' ? 'EVENT_NOT_FOUND' : 'MARKET_NOT_FOUND', `${venueId}: ${message}`, {
    detail: kind === 'event' ? { eventId: pubkey } : { marketId: pubkey },
  });
}
