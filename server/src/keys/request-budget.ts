import { PredgateError } from '@predgate/core';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Each API key's request budget, shared by every way in: HTTP calls and
 * `/ws` upgrades draw on the same points, so a client cannot step around its
 * limit by opening sockets. `requests: 0` turns the budget off.
 */
export class RequestBudget {
  private readonly limiter: RateLimiterMemory | undefined;

  constructor(private readonly limit: { requests: number; windowSeconds: number }) {
    this.limiter = limit.requests === 0 ? undefined : new RateLimiterMemory({ points: limit.requests, duration: limit.windowSeconds });
  }

  /** Takes one request from the key's budget; RATE_LIMIT_EXCEEDED with `retryAfter` when it is spent. */
  async spend(keyId: string): Promise<void> {
    if (!this.limiter) return;
    try {
      await this.limiter.consume(keyId);
    } catch (outcome) {
      if (!(outcome instanceof RateLimiterRes)) throw outcome;
      const retryAfter = Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));
      throw new PredgateError(
        'RATE_LIMIT_EXCEEDED',
        `Rate limit of ${this.limit.requests} requests per ${this.limit.windowSeconds} s exceeded for this API key`,
        {
          detail: { retryAfter, limit: this.limit.requests, windowSeconds: this.limit.windowSeconds },
        },
      );
    }
  }
}
