import { boomify } from '@hapi/boom';
import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import { PredgateError } from '@predgate/core';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { DependencyContainer } from 'tsyringe';
import { tokens } from '../container.js';

export interface CallerCredentials {
  keyId: string;
}

/**
 * API keys on every route that does not opt out (`auth: false`): a Bearer
 * token, or the `x-api-key` header, checked against the key store. Each key
 * then has its own request budget. pmxt clients also send
 * `x-pmxt-access-token` (their local sidecar's token); it is ignored.
 */
export const authPlugin: Plugin<{ container: DependencyContainer }> = {
  name: 'predgate-auth',
  register(server, { container }) {
    const keys = container.resolve(tokens.keys);
    const { rateLimit } = container.resolve(tokens.config);

    server.auth.scheme('predgate-api-key', () => ({
      authenticate(request: Request, h: ResponseToolkit) {
        const presented = presentedKey(request);
        if (!presented) throw rejected('Missing API key: send "Authorization: Bearer <key>"');
        const stored = keys.verify(presented);
        if (!stored) throw rejected('Invalid API key');
        return h.authenticated({ credentials: { keyId: stored.id } satisfies CallerCredentials });
      },
    }));
    server.auth.strategy('api-key', 'predgate-api-key');
    server.auth.default('api-key');

    if (rateLimit.requests === 0) return;
    const limiter = new RateLimiterMemory({ points: rateLimit.requests, duration: rateLimit.windowSeconds });
    server.ext('onPostAuth', async (request, h) => {
      if (!request.auth.isAuthenticated) return h.continue;
      const { keyId } = request.auth.credentials as unknown as CallerCredentials;
      try {
        await limiter.consume(keyId);
      } catch (outcome) {
        if (!(outcome instanceof RateLimiterRes)) throw outcome;
        const retryAfter = Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));
        const error = new PredgateError(
          'RATE_LIMIT_EXCEEDED',
          `Rate limit of ${rateLimit.requests} requests per ${rateLimit.windowSeconds} s exceeded for this API key`,
          {
            detail: { retryAfter, limit: rateLimit.requests, windowSeconds: rateLimit.windowSeconds },
          },
        );
        throw boomify(error, { statusCode: 429 });
      }
      return h.continue;
    });
  },
};

function presentedKey(request: Request): string | undefined {
  const authorization: unknown = request.headers.authorization;
  if (typeof authorization === 'string' && authorization.length > 0) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match?.[1];
  }
  const header: unknown = request.headers['x-api-key'];
  return typeof header === 'string' && header.length > 0 ? header : undefined;
}

// hapi only passes Boom errors through authentication untouched; the brand of
// the unified error survives boomify, so the envelope still recognises it.
function rejected(message: string) {
  return boomify(new PredgateError('INVALID_API_KEY', message), { statusCode: 401 });
}
