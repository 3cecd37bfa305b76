import { PredgateError } from '../errors.js';

export interface CircuitOptions {
  /** Share of failed calls in the rolling window, in percent, past which the circuit opens. */
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

/** The window is counted in this many slices; the oldest slice leaves it as a new one starts. */
const slices = 10;

/**
 * A circuit breaker per venue: while a venue keeps failing, calls answer
 * EXCHANGE_NOT_AVAILABLE at once (retryable, with `retryAfter`) instead of
 * each waiting out its timeouts and retries, and one call is let through
 * after `resetMs` to see whether the venue is back: it closes the circuit
 * unless it fails as a venue that is down fails, which opens it again.
 *
 * Counted here rather than with a library: it runs on every venue call, so
 * it keeps two counts per slice of the window, read against the clock when a
 * call ends (no timers, no events).
 */
export class VenueCircuit {
  private readonly settings: CircuitOptions;
  private readonly sliceMs: number;
  /** Calls let through and venue failures per slice, with the number of the slice each counts (time / sliceMs). */
  private readonly calls = new Array<number>(slices).fill(0);
  private readonly failures = new Array<number>(slices).fill(0);
  private readonly sliceOf = new Array<number>(slices).fill(-1);
  /** When the circuit last opened; undefined while closed. */
  private openedAt: number | undefined;
  /** Half-open: the one call let through to try the venue is under way. */
  private trying = false;

  constructor(
    readonly venue: string,
    options: Partial<CircuitOptions> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.settings = { ...defaultCircuit, ...options };
    this.sliceMs = Math.max(1, this.settings.windowMs / slices);
  }

  get state(): CircuitState {
    if (this.openedAt === undefined) return 'closed';
    return this.now() - this.openedAt < this.settings.resetMs ? 'open' : 'half-open';
  }

  /** Seconds until an open circuit lets a call through again. */
  get retryAfter(): number | undefined {
    return this.state === 'open' ? Math.max(1, Math.ceil((this.openedAt! + this.settings.resetMs - this.now()) / 1000)) : undefined;
  }

  async run<T>(call: () => Promise<T>): Promise<T> {
    const state = this.state;
    if (state === 'open' || (state === 'half-open' && this.trying)) {
      throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${this.venue} is failing; calls are refused for now without waiting on it`, {
        exchange: this.venue,
        detail: { circuit: 'open', retryAfter: this.retryAfter ?? 1 },
      });
    }
    const trial = state === 'half-open';
    if (trial) this.trying = true;
    this.count(false);
    try {
      const value = await call();
      if (trial) this.close();
      return value;
    } catch (error) {
      if (!venueDown.has((error as { code?: string }).code ?? '')) {
        if (trial) this.close();
      } else if (trial) this.open();
      else if (this.count(true) && this.openedAt === undefined) this.open();
      throw error;
    }
  }

  /** Counts a call let through, or a venue failure; for a failure, says whether the window's share of them now opens the circuit. */
  private count(failure: boolean): boolean {
    const slice = Math.floor(this.now() / this.sliceMs);
    const at = slice % slices;
    if (this.sliceOf[at] !== slice) {
      this.sliceOf[at] = slice;
      this.calls[at] = 0;
      this.failures[at] = 0;
    }
    if (!failure) {
      this.calls[at] = this.calls[at]! + 1;
      return false;
    }
    this.failures[at] = this.failures[at]! + 1;
    let calls = 0;
    let failures = 0;
    for (let index = 0; index < slices; index += 1) {
      if (slice - this.sliceOf[index]! >= slices) continue;
      calls += this.calls[index]!;
      failures += this.failures[index]!;
    }
    return calls >= this.settings.volumeThreshold && (failures / calls) * 100 > this.settings.errorThresholdPercentage;
  }

  private open(): void {
    this.openedAt = this.now();
    this.trying = false;
  }

  private close(): void {
    this.openedAt = undefined;
    this.trying = false;
  }
}
