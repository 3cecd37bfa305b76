import { PredgateError } from '@predgate/core';
import type { Db } from 'mongodb';
import { RLWrapperTimeouts, RateLimiterMemory, RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/** Where a key's budget stands after a request: what the `RateLimit-*` headers say. */
export interface BudgetState {
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the budget is whole again. */
  resetSeconds: number;
}

/** The longest a request waits on the shared budget before its gateway's own budget answers instead. */
const sharedBudgetTimeoutMs = 1_000;

/** The collection of the catalog's database holding every key's points of the current window. */
export const rateLimitsCollectionName = 'rateLimits';

/**
 * Each API key's request budget, shared by every way in: HTTP calls and
 * `/ws` upgrades draw on the same points, so a client cannot step around its
 * limit by opening sockets. With `db` (the catalog is MongoDB) the points are
 * kept there, so every gateway sharing the catalog draws on one budget per
 * key; should the database fail, each gateway falls back to a budget of its
 * own rather than refusing or letting everything through. `requests: 0`
 * turns the budget off.
 */
export class RequestBudget {
  private readonly limiter: RateLimiterAbstract | RLWrapperTimeouts | undefined;
  /** Requests refused once, by the HTTP request they arrived as: asked again (by hapi, after the lean path), they are refused without a second charge. */
  private readonly refused = new WeakMap<object, PredgateError>();

  constructor(
    private readonly limit: { requests: number; windowSeconds: number },
    shared?: { db: Db },
  ) {
    if (limit.requests === 0) return;
    const options = { points: limit.requests, duration: limit.windowSeconds };
    this.limiter = shared
      ? // A database slow to answer (or gone: the driver waits its whole server selection time) costs a request at most a second.
        new RLWrapperTimeouts({
          limiter: new RateLimiterMongo({
            ...options,
            storeClient: shared.db,
            tableName: rateLimitsCollectionName,
            keyPrefix: 'key',
            // A spent key is refused from memory until its window ends: no database round trip per refused request.
            inMemoryBlockOnConsumed: limit.requests,
          }),
          insuranceLimiter: new RateLimiterMemory(options),
          timeoutMs: sharedBudgetTimeoutMs,
        })
      : new RateLimiterMemory(options);
  }

  /**
   * Takes one request from the key's budget and says where it stands;
   * RATE_LIMIT_EXCEEDED with `retryAfter` (and the state, in `budget`) when
   * it is spent. `request` names the HTTP request being charged, so that it
   * is charged once however many steps ask. Undefined when there is no budget.
   */
  async spend(keyId: string, request?: object): Promise<BudgetState | undefined> {
    if (!this.limiter) return undefined;
    const refusedBefore = request && this.refused.get(request);
    if (refusedBefore) throw refusedBefore;
    try {
      return this.state(await this.limiter.consume(keyId));
    } catch (outcome) {
      if (!(outcome instanceof RateLimiterRes)) throw outcome;
      const budget = this.state(outcome);
      const refusal = new PredgateError(
        'RATE_LIMIT_EXCEEDED',
        `Rate limit of ${this.limit.requests} requests per ${this.limit.windowSeconds} s exceeded for this API key`,
        { detail: { retryAfter: budget.resetSeconds, limit: this.limit.requests, windowSeconds: this.limit.windowSeconds } },
      );
      refusedBudgets.set(refusal, budget);
      if (request) this.refused.set(request, refusal);
      throw refusal;
    }
  }

  private state(outcome: RateLimiterRes): BudgetState {
    return { limit: this.limit.requests, remaining: outcome.remainingPoints, resetSeconds: Math.max(1, Math.ceil(outcome.msBeforeNext / 1000)) };
  }
}

const refusedBudgets = new WeakMap<PredgateError, BudgetState>();

/** The budget state a RATE_LIMIT_EXCEEDED refusal was made from. */
export function refusedBudget(error: unknown): BudgetState | undefined {
  return error instanceof PredgateError ? refusedBudgets.get(error) : undefined;
}

/** The `RateLimit-*` headers (IETF draft, without the policy) of a budget state. */
export function rateLimitHeaders(budget: BudgetState): Array<[string, string]> {
  return [
    ['ratelimit-limit', String(budget.limit)],
    ['ratelimit-remaining', String(budget.remaining)],
    ['ratelimit-reset', String(budget.resetSeconds)],
  ];
}
