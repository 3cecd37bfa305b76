import CircuitBreaker from 'opossum';
import { PredgateError } from '../errors.js';

export interface CircuitOptions {
  /** Share of failed calls in the rolling window that opens the circuit. */
  errorThresholdPercentage: number;
  /** Calls in the window before the share counts, so a few failures at start do not open it. */
  volumeThreshold: number;
  /** Length of the rolling window. */
  windowMs: number;
  /** How long an open circuit refuses calls before one is let through to try the venue again. */
  resetMs: number;
}

export type CircuitState = 'closed' | 'open' | 'half-open';

const defaultCircuit: CircuitOptions = { errorThresholdPercentage: 50, volumeThreshold: 10, windowMs: 10_000, resetMs: 30_000 };

/** Failures that say the venue is down or overwhelmed; anything else (a 404, a bad argument, a rejected order) is the caller's or a normal answer. */
const venueDown = new Set(['NETWORK_ERROR', 'EXCHANGE_NOT_AVAILABLE', 'RATE_LIMIT_EXCEEDED']);

/**
 * A circuit breaker per venue: while a venue keeps failing, calls answer
 * EXCHANGE_NOT_AVAILABLE at once (retryable, with `retryAfter`) instead of
 * each waiting out its timeouts and retries, and one call is let through
 * after `resetMs` to see whether the venue is back.
 */
export class VenueCircuit {
  private readonly breaker: CircuitBreaker<[() => Promise<unknown>], unknown>;
  private openedAt = 0;

  constructor(
    readonly venue: string,
    options: Partial<CircuitOptions> = {},
    private readonly now: () => number = Date.now,
  ) {
    const settings = { ...defaultCircuit, ...options };
    this.breaker = new CircuitBreaker((call: () => Promise<unknown>) => call(), {
      timeout: false,
      errorThresholdPercentage: settings.errorThresholdPercentage,
      volumeThreshold: settings.volumeThreshold,
      rollingCountTimeout: settings.windowMs,
      resetTimeout: settings.resetMs,
      // `true` leaves an error out of the failure count.
      errorFilter: (error: unknown) => !venueDown.has((error as { code?: string }).code ?? ''),
    });
    this.breaker.on('open', () => (this.openedAt = this.now()));
    this.resetMs = settings.resetMs;
  }

  private readonly resetMs: number;

  get state(): CircuitState {
    if (this.breaker.opened) return 'open';
    return this.breaker.halfOpen ? 'half-open' : 'closed';
  }

  /** Seconds until an open circuit lets a call through again. */
  get retryAfter(): number | undefined {
    return this.breaker.opened ? Math.max(1, Math.ceil((this.openedAt + this.resetMs - this.now()) / 1000)) : undefined;
  }

  async run<T>(call: () => Promise<T>): Promise<T> {
    try {
      return (await this.breaker.fire(call)) as T;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EOPENBREAKER') throw error;
      throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${this.venue} is failing; calls are refused for now without waiting on it`, {
        exchange: this.venue,
        detail: { circuit: 'open', retryAfter: this.retryAfter ?? 1 },
      });
    }
  }

  shutdown(): void {
    this.breaker.shutdown();
  }
}
