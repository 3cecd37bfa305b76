import { isBoom } from '@hapi/boom';
import type { Boom } from '@hapi/boom';
import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import { PredgateError, isPredgateError, toErrorResponse } from '@predgate/core';
import type { ErrorCode, ErrorResponse } from '@predgate/core';

/** Route setting that selects the Router's error body (`{error}`) over the pass-through envelope. */
export interface RouteEnvelope {
  envelope?: 'pass-through' | 'router';
}

/** Request state the pass-through sets once it knows the venue, for the error's `exchange`. */
export interface RequestVenue {
  venue?: string;
}

/**
 * Turns every failure into the unified error body with the code's status:
 * the pass-through envelope `{success:false, error}` by default, the Router's
 * `{error}` on Router routes. Unexpected errors are logged with their stack
 * and answered with a generic message quoting the request id.
 */
export const errorsPlugin: Plugin<void> = {
  name: 'predgate-errors',
  register(server) {
    server.ext('onPreResponse', (request: Request, h: ResponseToolkit) => {
      const response = request.response;
      if (!isBoom(response)) return h.continue;
      const known = isPredgateError(response) ? response : fromBoom(response);
      if (!known) request.logger.error({ err: response, requestId: request.info.id }, 'unexpected error');
      const settings = request.route?.settings.app as RouteEnvelope | undefined;
      // A path under /v0 that matched no route is still the Router's: its errors take the Router's form.
      const router = settings?.envelope === 'router' || (settings?.envelope === undefined && request.path.startsWith('/v0/'));
      const refusal = refusalOf(known ?? response, { exchange: (request.app as RequestVenue).venue ?? null, requestId: request.info.id, router });
      const reply = h.response(refusal.payload).code(refusal.status);
      for (const [name, value] of refusal.headers) reply.header(name, value);
      return reply;
    });
  },
};

/** A failure as the client is told of it: status, body, and the headers its detail asks for. */
export interface Refusal {
  status: number;
  payload: ErrorResponse['body'] | ReturnType<typeof routerBody>;
  headers: Array<[string, string]>;
}

/**
 * The unified error answer for `error`, whichever path answers: the
 * pass-through envelope, or the Router's `{error}` when `router`. Anything
 * not a PredgateError is an INTERNAL_ERROR quoting `requestId`.
 */
export function refusalOf(error: unknown, context: { exchange: string | null; requestId: string; router: boolean }): Refusal {
  const { status, body } = toErrorResponse(error, { exchange: context.exchange, requestId: context.requestId });
  const headers: Array<[string, string]> = [];
  const retryAfter = body.error.detail?.retryAfter;
  if (typeof retryAfter === 'number') headers.push(['retry-after', String(retryAfter)]);
  const allow = body.error.detail?.allow;
  if (typeof allow === 'string') headers.push(['allow', allow]);
  return { status, payload: context.router ? routerBody(body) : body, headers };
}

const boomCodes: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'INVALID_API_KEY',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'BAD_REQUEST',
  413: 'BAD_REQUEST',
  415: 'BAD_REQUEST',
  429: 'RATE_LIMIT_EXCEEDED',
};

/** hapi's own 4xx answers (no route, unparsable JSON, payload too large) in unified form; server errors stay unknown. */
function fromBoom(error: Boom): PredgateError | undefined {
  const status = error.output.statusCode;
  const code = boomCodes[status];
  if (!code) return undefined;
  const message = status === 404 ? 'No such route' : String(error.output.payload.message || error.message);
  return new PredgateError(code, message, { status });
}

function routerBody(body: ErrorResponse['body']): { error: Omit<ErrorResponse['body']['error'], 'exchange'> } {
  const { exchange: _exchange, ...error } = body.error;
  return { error };
}
