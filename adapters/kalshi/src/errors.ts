import { PredgateError, codeForStatus, mapVenueFailure, venueMessageOf } from '@predgate/core';
import type { ErrorCode, VenueFailure } from '@predgate/core';

/**
 * Kalshi's error answers as unified errors. Bodies are `{error: {code,
 * message, service, details?}}` or, for some answers (the 429), `{error:
 * "text"}`. The venue's message and code are kept in `detail`.
 */
export function mapError(failure: VenueFailure): PredgateError {
  const venueError = readVenueError(failure.body);
  const route = apiRoute(failure.path);
  const notFound = failure.status === 404 ? notFoundOf(route) : undefined;
  return mapVenueFailure(failure, {
    code: notFound?.code ?? codeFor(failure, route, venueError),
    message: notFound?.message,
    detail: venueError.code ? { venueCode: venueError.code } : undefined,
  });
}

interface VenueError {
  code?: string;
  message?: string;
}

function readVenueError(body: unknown): VenueError {
  const error = (body as { error?: unknown } | null)?.error;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return { code: typeof code === 'string' && code !== '' ? code : undefined, message: venueMessageOf(body) };
}

/** The path below `/trade-api/v2`, e.g. `/markets/KX-1/orderbook`. */
function apiRoute(path: string): string {
  const root = path.indexOf('/trade-api/v2');
  return root === -1 ? path : path.slice(root + '/trade-api/v2'.length);
}

const notFoundRoutes: Array<{ pattern: RegExp; code: ErrorCode; what: string }> = [
  { pattern: /^\/portfolio\/orders\/([^/]+)$/, code: 'ORDER_NOT_FOUND', what: 'Order' },
  { pattern: /^\/events\/([^/]+)(?:\/metadata)?$/, code: 'EVENT_NOT_FOUND', what: 'Event' },
  { pattern: /^\/markets\/(?!trades$|orderbooks$|candlesticks$)([^/]+)(?:\/orderbook)?$/, code: 'MARKET_NOT_FOUND', what: 'Market' },
  { pattern: /^\/series\/[^/]+\/markets\/([^/]+)\/candlesticks$/, code: 'MARKET_NOT_FOUND', what: 'Market' },
];

/** What a 404 means depends on the resource the path names. */
function notFoundOf(route: string): { code: ErrorCode; message: string } | undefined {
  for (const { pattern, code, what } of notFoundRoutes) {
    const match = pattern.exec(route);
    if (match) return { code, message: `${what} not found: ${decodeURIComponent(match[1]!)}` };
  }
  return undefined;
}

function codeFor(failure: VenueFailure, route: string, venueError: VenueError): ErrorCode {
  const text = `${venueError.code ?? ''} ${venueError.message ?? ''}`.toLowerCase();
  if (failure.status === 400 || failure.status === 409) {
    if (/credential|signature|unauthori[sz]ed/.test(text)) return 'AUTHENTICATION_ERROR';
    if (/insufficient|balance/.test(text)) return 'INSUFFICIENT_FUNDS';
    if (isOrderWrite(failure.method, route)) return 'INVALID_ORDER';
    return 'BAD_REQUEST';
  }
  return codeForStatus(failure.status);
}

/** Placing, amending or cancelling an order: a 4xx there is the venue refusing the order. */
function isOrderWrite(method: string, route: string): boolean {
  return method !== 'GET' && route.startsWith('/portfolio/orders');
}

/** A VALIDATION_ERROR about one argument, shaped like the registry's own. */
export function invalidArgument(venue: string, method: string, path: string, message: string, rule = 'any.invalid'): PredgateError {
  return new PredgateError('VALIDATION_ERROR', `${method}: ${message}`, {
    exchange: venue,
    detail: { method, argument: path.split('.')[0], path, rule },
  });
}
