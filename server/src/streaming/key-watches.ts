import { PredgateError } from '@predgate/core';

/**
 * How many symbols each API key watches at once, over `/ws` and HTTP
 * together, against one cap. Each watched symbol holds at most one venue
 * subscription, so the cap bounds the upstreams a key can open too.
 */
export class KeyWatches {
  private readonly held = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Counts `count` more watches for the key, or refuses them all with the cap in the error. */
  take(keyId: string, count: number): void {
    const held = this.held.get(keyId) ?? 0;
    if (held + count > this.max) {
      throw new PredgateError(
        'RATE_LIMIT_EXCEEDED',
        `This API key already watches ${held} symbols; at most ${this.max} at once: unwatch some (or close) first`,
        {
          retryable: false,
          detail: { maxWatchesPerKey: this.max, held, asked: count },
        },
      );
    }
    this.held.set(keyId, held + count);
  }

  give(keyId: string, count: number): void {
    const left = (this.held.get(keyId) ?? 0) - count;
    if (left > 0) this.held.set(keyId, left);
    else this.held.delete(keyId);
  }

  heldBy(keyId: string): number {
    return this.held.get(keyId) ?? 0;
  }
}
