import { boomify, isBoom } from '@hapi/boom';
import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import type { PredgateError } from '@predgate/core';
import type { DependencyContainer } from 'tsyringe';
import { tokens } from '../container.js';
import { headerKey } from '../keys/presented-key.js';
import { rateLimitHeaders, refusedBudget } from '../keys/request-budget.js';
import type { BudgetState } from '../keys/request-budget.js';

export interface CallerCredentials {
  keyId: string;
}

/** Each authenticated request's budget after it was charged. */
const budgets = new WeakMap<Request, BudgetState | undefined>();

/**
 * API keys on every route that does not opt out (`auth: false`): a Bearer
 * token, or the `x-api-key` header, let in by the request gate (the key
 * checked, then its request budget charged). pmxt clients also send
 * `x-pmxt-access-token` (their local sidecar's token); it is ignored.
 */

export const authPlugin: Plugin<{ container: DependencyContainer }> = {
  name: 'predgate-auth',
  register(server, { container }) {
    const gate = container.resolve(tokens.requestGate);

    // The budget is spent here, with the key check, rather than in a step of its own: every request pays
    // for each lifecycle step, and only requests with a key have a budget.
    server.auth.scheme('predgate-api-key', () => ({
      async authenticate(request: Request, h: ResponseToolkit) {
        try {
          const admitted = await gate.admit(headerKey(request.raw.req.headers), request.raw.req);
          budgets.set(request, admitted.budget);
          return h.authenticated({ credentials: { keyId: admitted.key.id } satisfies CallerCredentials });
        } catch (error) {
          // hapi only passes Boom errors through authentication untouched; the brand of
          // the unified error survives boomify, so the envelope still recognises it.
          const refusal = error as PredgateError;
          if (refusal.code === 'INVALID_API_KEY') throw boomify(refusal, { statusCode: 401 });
          budgets.set(request, refusedBudget(refusal));
          throw boomify(refusal, { statusCode: 429 });
        }
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
