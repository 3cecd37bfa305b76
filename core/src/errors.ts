/**
 * Unified errors. Every failure a client sees carries one of these codes, with
 * the code's HTTP status and whether repeating the same request may succeed.
 *
 * Errors are branded with a registry symbol rather than recognised by class
 * identity: an adapter built against another copy of `@predgate/core` (a third
 * party pinning a different patch release) still throws errors the server
 * understands.
 */

export interface ErrorCodeInfo {
  readonly status: number;
  readonly retryable: boolean;
  readonly message: string;
}

/** The hosted family and the legacy family of SPEC.md, plus the gateway's own INTERNAL_ERROR. */
export const errorCodes = {
  // Legacy family
  BAD_REQUEST: { status: 400, retryable: false, message: 'Bad request' },
  VALIDATION_ERROR: { status: 400, retryable: false, message: 'Invalid arguments' },
  INVALID_ORDER: { status: 400, retryable: false, message: 'The venue rejected the order' },
  INSUFFICIENT_FUNDS: { status: 400, retryable: false, message: 'Insufficient funds' },
  AUTHENTICATION_ERROR: { status: 401, retryable: false, message: 'Venue authentication failed' },
  PERMISSION_DENIED: { status: 403, retryable: false, message: 'Permission denied' },
  NOT_FOUND: { status: 404, retryable: false, message: 'Not found' },
  ORDER_NOT_FOUND: { status: 404, retryable: false, message: 'Order not found' },
  MARKET_NOT_FOUND: { status: 404, retryable: false, message: 'Market not found' },
  EVENT_NOT_FOUND: { status: 404, retryable: false, message: 'Event not found' },
  RATE_LIMIT_EXCEEDED: { status: 429, retryable: true, message: 'Rate limit exceeded' },
  NOT_SUPPORTED: { status: 501, retryable: false, message: 'Not supported by this venue' },
  NETWORK_ERROR: { status: 503, retryable: true, message: 'Could not reach the venue' },
  EXCHANGE_NOT_AVAILABLE: { status: 503, retryable: true, message: 'The venue is not available' },
  // Hosted family
  INVALID_API_KEY: { status: 401, retryable: false, message: 'Missing or invalid API key' },
  INVALID_SIGNATURE: { status: 401, retryable: false, message: 'Invalid signature' },
  MISSING_WALLET_ADDRESS: { status: 400, retryable: false, message: 'A wallet address is required' },
  ORDER_SIZE_TOO_SMALL: { status: 400, retryable: false, message: 'Order size is below the venue minimum' },
  INSUFFICIENT_ESCROW_BALANCE: { status: 400, retryable: false, message: 'Insufficient escrow balance' },
  OUTCOME_NOT_FOUND: { status: 404, retryable: false, message: 'Outcome not found' },
  BUILT_ORDER_EXPIRED: { status: 410, retryable: false, message: 'The built order has expired' },
  NO_LIQUIDITY: { status: 422, retryable: false, message: 'Not enough liquidity' },
  HOSTED_TRADING_ERROR: { status: 502, retryable: false, message: 'Trading failed' },
  CATALOG_UNAVAILABLE: { status: 503, retryable: true, message: 'The catalog is unavailable' },
  // Gateway
  INTERNAL_ERROR: { status: 500, retryable: false, message: 'Internal error' },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof errorCodes;

export interface ErrorDetail {
  code: string;
  message: string;
  retryable: boolean;
  exchange: string | null;
  detail: Record<string, unknown> | null;
}

export interface ErrorEnvelope {
  success: false;
  error: ErrorDetail;
}

export interface PredgateErrorOptions {
  /** Venue the error came from, when known. */
  exchange?: string | null;
  /** Free-form, code-specific facts (the venue's own message, `retryAfter`, `min`, ...). */
  detail?: Record<string, unknown> | null;
  /** Overrides the code's default. */
  retryable?: boolean;
  /** Overrides the code's HTTP status (for example 405 for a wrong verb). */
  status?: number;
  cause?: unknown;
}

const brand = Symbol.for('predgate.error');

export class PredgateError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly exchange: string | null;
  readonly detail: Record<string, unknown> | null;

  constructor(code: ErrorCode, message?: string, options: PredgateErrorOptions = {}) {
    const info = errorCodes[code];
    super(message ?? info.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PredgateError';
    this.code = code;
    this.status = options.status ?? info.status;
    this.retryable = options.retryable ?? info.retryable;
    this.exchange = options.exchange ?? null;
    this.detail = options.detail ?? null;
    Object.defineProperty(this, brand, { value: true });
  }

  toJSON(): ErrorDetail {
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      exchange: this.exchange,
      detail: this.detail,
    };
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return isPredgateError(value);
  }
}

/** Structural view of an error made by any copy of `@predgate/core`. */
export interface BrandedError {
  code: string;
  message: string;
  status?: number;
  retryable?: boolean;
  exchange?: string | null;
  detail?: Record<string, unknown> | null;
}

export function isPredgateError(value: unknown): value is PredgateError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(errorCodes, code);
}

export interface EnvelopeContext {
  /** Venue of the call, used when the error does not name one. */
  exchange?: string | null;
  /** Quoted in the generic message of unexpected errors so operators can find the log line. */
  requestId?: string;
}

export interface ErrorResponse {
  status: number;
  body: ErrorEnvelope;
}

/**
 * Turns anything thrown into the pass-through error envelope and its HTTP
 * status. Errors that are not ours become a generic INTERNAL_ERROR: their
 * message and stack may hold internals, so neither reaches the client.
 */
export function toErrorResponse(thrown: unknown, context: EnvelopeContext = {}): ErrorResponse {
  if (isPredgateError(thrown)) {
    const foreign = thrown as unknown as BrandedError;
    const known = isErrorCode(foreign.code) ? errorCodes[foreign.code] : undefined;
    return {
      status: foreign.status ?? known?.status ?? 500,
      body: {
        success: false,
        error: {
          code: foreign.code,
          message: String(foreign.message || known?.message || foreign.code),
          retryable: foreign.retryable ?? known?.retryable ?? false,
          exchange: foreign.exchange ?? context.exchange ?? null,
          detail: foreign.detail ?? null,
        },
      },
    };
  }
  const suffix = context.requestId ? ` (request ${context.requestId})` : '';
  return {
    status: 500,
    body: {
      success: false,
      error: {
        code: 'INTERNAL_ERROR',
        message: `${errorCodes.INTERNAL_ERROR.message}${suffix}`,
        retryable: false,
        exchange: context.exchange ?? null,
        detail: context.requestId ? { requestId: context.requestId } : null,
      },
    },
  };
}
