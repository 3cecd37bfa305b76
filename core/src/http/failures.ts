import { PredgateError } from '../errors.js';
import type { ErrorCode } from '../errors.js';

/** A venue answer outside 2xx, as the client saw it. Never holds the request's headers: they may carry credentials. */
export interface VenueFailure {
  venue: string;
  method: string;
  /** Scheme, host and port: venues with several APIs share paths across hosts. */
  origin: string;
  /** URL path without the query string. */
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON when the venue sent JSON, otherwise the raw text, or null when empty. */
  body: unknown;
}

/** What an adapter knows better than the status: the code, the message, and facts of its own for `detail`. */
export interface FailureReading {
  code?: ErrorCode;
  message?: string;
  detail?: Record<string, unknown>;
}

/**
 * A venue's answer outside 2xx as a unified error: the code the status
 * implies, the venue's own message, and the request's method and path (with
 * Retry-After on rate limits). An adapter whose venue says more passes its
 * reading, and keeps everything else the same as every other venue's.
 */
export function mapVenueFailure(failure: VenueFailure, reading: FailureReading = {}): PredgateError {
  const code = reading.code ?? codeForStatus(failure.status);
  const venueMessage = venueMessageOf(failure.body);
  const detail: Record<string, unknown> = { status: failure.status, method: failure.method, path: failure.path };
  if (venueMessage) detail.venueMessage = venueMessage;
  Object.assign(detail, reading.detail);
  if (code === 'RATE_LIMIT_EXCEEDED') {
    const retryAfter = retryAfterSeconds(failure.headers['retry-after']);
    if (retryAfter !== undefined) detail.retryAfter = retryAfter;
  }
  const message = reading.message ?? (venueMessage ? `${failure.venue}: ${venueMessage}` : `${failure.venue} answered HTTP ${failure.status}`);
  return new PredgateError(code, message, { exchange: failure.venue, detail });
}

export function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'AUTHENTICATION_ERROR';
  if (status === 403) return 'PERMISSION_DENIED';
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RATE_LIMIT_EXCEEDED';
  if (status >= 500) return 'EXCHANGE_NOT_AVAILABLE';
  return 'BAD_REQUEST';
}

/** The human-readable message inside the usual error body shapes (`{error:{message}}`, `{error}`, `{message}`, text). */
export function venueMessageOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 500) || undefined;
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  const error = record.error;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const nested = (error as Record<string, unknown>).message;
    if (typeof nested === 'string') return nested;
  }
  for (const key of ['message', 'errorMsg', 'detail', 'msg']) {
    if (typeof record[key] === 'string' && record[key]) return record[key];
  }
  return undefined;
}

/** Seconds to wait according to a Retry-After header (delta-seconds or an HTTP date). */
export function retryAfterSeconds(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** Failures to reach a venue or to read its answer, by the codes Node and undici give them: one list for mapping and retries. */
export const networkErrorCodes: readonly string[] = [
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETDOWN',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EHOSTUNREACH',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
  // A body cut short of its content-length.
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
];

const networkErrors = new Set(networkErrorCodes);

/**
 * The network failures worth another attempt: all but timeouts, since a venue
 * that did not answer in time would make each retry wait as long again.
 */
const retryableNetworkErrors = new Set(networkErrorCodes.filter((code) => !code.includes('TIMEOUT') && code !== 'ETIMEDOUT'));

/** Whether a failure to reach the venue or read its answer is worth another attempt of an idempotent request. */
export function isRetryableTransport(error: unknown): boolean {
  return transportCode(error, retryableNetworkErrors) !== undefined;
}

/**
 * Maps a failure to reach the venue (refused, reset, timed out) to NETWORK_ERROR.
 * Anything else is rethrown untouched: it is a bug or a test double's complaint,
 * and hiding it behind a network error would only mislead.
 */
export function mapTransportError(error: unknown, venue: string): unknown {
  const code = transportCode(error);
  if (code === undefined) return error;
  const timedOut = code.includes('TIMEOUT') || code === 'ETIMEDOUT';
  const message = timedOut ? `${venue} did not answer in time` : `Could not reach ${venue}`;
  return new PredgateError('NETWORK_ERROR', message, { exchange: venue, detail: { cause: code }, cause: error });
}

/** Failures that happen before anything is sent: the host's name does not resolve, or nothing accepts the connection. */
const unreachableCodes = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ENETDOWN', 'ENETUNREACH', 'EHOSTDOWN', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** Whether a transport failure left the request unsent, so another host may be asked (even for a write). */
export function isUnreachable(error: unknown): boolean {
  return transportCode(error, unreachableCodes) !== undefined;
}

function transportCode(error: unknown, codes: ReadonlySet<string> = networkErrors): string | undefined {
  let current: unknown = error;
  // Connection errors arrive wrapped (undici SocketError, AggregateError from happy eyeballs).
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, cause, errors } = current as { code?: unknown; cause?: unknown; errors?: unknown[] };
    if (typeof code === 'string' && codes.has(code)) return code;
    current = cause ?? errors?.[0];
  }
  return undefined;
}
