import { boomify, isBoom } from '@hapi/boom';
import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import { PredgateError } from '@predgate/core';
import type { DependencyContainer } from 'tsyringe';
import { tokens } from '../container.js';
import { headerKey } from '../keys/presented-key.js';
import { rateLimitHeaders, refusedBudget } from '../keys/request-budget.js';
import type { BudgetState } from '../keys/request-budget.js';

export interface CallerCredentials {
  keyId: string;
}

/**
 * API keys on every route that does not opt out (`auth: false`): a Bearer
 * token, or the `x-api-key` header, checked against the key store. Each key
 * then has its own request budget. pmxt clients also send
 * `x-pmxt-access-token` (their local sidecar's token); it is ignored.
 */
/** Each authenticated request's budget after it was charged. */
const budgets = new WeakMap<Request, BudgetState | undefined>();

export const authPlugin: Plugin<{ container: DependencyContainer }> = {
  name: 'predgate-auth',
  register(server, { container }) {
    const keys = container.resolve(tokens.keys);
    const budget = container.resolve(tokens.requestBudget);

    // The budget is spent here, with the key check, rather than in a step of its own: every request pays
    // for each lifecycle step, and only requests with a key have a budget.
    server.auth.scheme('predgate-api-key', () => ({
      async authenticate(request: Request, h: ResponseToolkit) {
        const presented = headerKey(request.raw.req.headers);
        if (!presented) throw rejected('Missing API key: send "Authorization: Bearer <key>"');
        const stored = keys.verify(presented);
        if (!stored) throw rejected('Invalid API key');
        try {
          budgets.set(request, await budget.spend(stored.id, request.raw.req));
        } catch (error) {
          budgets.set(request, refusedBudget(error));
          throw boomify(error as PredgateError, { statusCode: 429 });
        }
        return h.authenticated({ credentials: { keyId: stored.id } satisfies CallerCredentials });
      },
    }));
    server.auth.strategy('api-key', 'predgate-api-key');
    server.auth.default('api-key');

    // Every keyed answer, refusals included, tells the client where its budget stands.
    server.ext('onPreResponse', (request: Request, h: ResponseToolkit) => {
      const state = budgets.get(request);
      if (!state) return h.continue;
      const response = request.response;
      for (const [name, value] of rateLimitHeaders(state)) {
        if (isBoom(response)) response.output.headers[name] = value;
        else response.header(name, value);
      }
      return h.continue;
    });
  },
};

// hapi only passes Boom errors through authentication untouched; the brand of
// the unified error survives boomify, so the envelope still recognises it.
function rejected(message: string) {
  return boomify(new PredgateError('INVALID_API_KEY', message), { statusCode: 401 });
}
