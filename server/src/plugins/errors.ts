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
      const exchange = (request.app as RequestVenue).venue ?? null;
      const known = isPredgateError(response) ? response : fromBoom(response);
      if (!known) request.logger.error({ err: response, requestId: request.info.id }, 'unexpected error');
      const { status, body } = toErrorResponse(known ?? response, { exchange, requestId: request.info.id });
      const settings = request.route?.settings.app as RouteEnvelope | undefined;
      // A path under /v0 that matched no route is still the Router's: its errors take the Router's form.
      const routerPath = settings?.envelope === 'router' || (settings?.envelope === undefined && request.path.startsWith('/v0/'));
      const payload = routerPath ? routerBody(body) : body;
      const reply = h.response(payload).code(status);
      const retryAfter = body.error.detail?.retryAfter;
      if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
      const allow = body.error.detail?.allow;
      if (typeof allow === 'string') reply.header('allow', allow);
      return reply;
    });
  },
};

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
