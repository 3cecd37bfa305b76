import { PredgateError } from '@predgate/core';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Each API key's request budget, shared by every way in: HTTP calls and
 * `/ws` upgrades draw on the same points, so a client cannot step around its
 * limit by opening sockets. `requests: 0` turns the budget off.
 */
export class RequestBudget {
  private readonly limiter: RateLimiterMemory | undefined;
  /** Requests refused once, by the HTTP request they arrived as: asked again (by hapi, after the replay lane), they are refused without a second charge. */
  private readonly refused = new WeakMap<object, PredgateError>();

  constructor(private readonly limit: { requests: number; windowSeconds: number }) {
    this.limiter = limit.requests === 0 ? undefined : new RateLimiterMemory({ points: limit.requests, duration: limit.windowSeconds });
  }

  /**
   * Takes one request from the key's budget; RATE_LIMIT_EXCEEDED with
   * `retryAfter` when it is spent. `request` names the HTTP request being
   * charged, so that it is charged once however many steps ask.
   */
  async spend(keyId: string, request?: object): Promise<void> {
    if (!this.limiter) return;
    const refusedBefore = request && this.refused.get(request);
    if (refusedBefore) throw refusedBefore;
    try {
      await this.limiter.consume(keyId);
    } catch (outcome) {
      if (!(outcome instanceof RateLimiterRes)) throw outcome;
      const retryAfter = Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));
      const refusal = new PredgateError(
        'RATE_LIMIT_EXCEEDED',
        `Rate limit of ${this.limit.requests} requests per ${this.limit.windowSeconds} s exceeded for this API key`,
        {
          detail: { retryAfter, limit: this.limit.requests, windowSeconds: this.limit.windowSeconds },
        },
      );
      if (request) this.refused.set(request, refusal);
      throw refusal;
    }
  }
}
