import { addUnscopedDriftSink, isPredgateError } from '@predgate/core';
import type { Counter } from 'prom-client';

/** One venue answer Predgate did not understand. */
export interface DriftReport {
  endpoint: string;
  field: string;
  /** The id of the list item left out for it; absent when the whole answer was refused. */
  item?: string;
  message: string;
  at: number;
}

const kept = 5;

/**
 * Venue drift as it is met: every venue answer an adapter refused for its
 * shape, and every list item it left out as unreadable (an error whose
 * detail says `drift`, with the endpoint, the field and the item's id)
 * is counted per venue, endpoint and field, and the last few per venue are
 * kept for `/v0/status`, so an operator sees a venue changing its API before
 * users report empty books. A report is counted once, however many times
 * it is handed over (an item left out, then thrown as a lookup's answer).
 */
export class DriftRecorder {
  private readonly recent = new Map<string, DriftReport[]>();
  private readonly counted = new WeakSet<object>();

  constructor(
    private readonly counter: Counter<'venue' | 'endpoint' | 'field'>,
    private readonly now: () => number,
  ) {}

  /** Records `error` if it is a drift report; anything else is left alone. */
  record(venue: string, error: unknown): void {
    if (!isPredgateError(error) || error.detail?.drift !== true || this.counted.has(error)) return;
    this.counted.add(error);
    const endpoint = String(error.detail.endpoint ?? 'unknown');
    const field = String(error.detail.field ?? 'unknown');
    // Array positions would make one series per item: `events.7.markets` counts as `events.*.markets`.
    this.counter.inc({ venue, endpoint, field: field.replace(/(^|\.)\d+(?=\.|$)/g, '$1*') });
    const item = error.detail.item === undefined ? {} : { item: String(error.detail.item) };
    const reports = [{ endpoint, field, ...item, message: error.message, at: this.now() }, ...(this.recent.get(venue) ?? [])];
    this.recent.set(venue, reports.slice(0, kept));
  }

  /**
   * Counts the drift reported outside any drift scope (a live call's adapter reports) for the venue it names,
   * when that is one of `venues`; the returned function stops it.
   */
  countUnscoped(venues: readonly string[]): () => void {
    return addUnscopedDriftSink((report) => {
      if (report.exchange !== null && venues.includes(report.exchange)) this.record(report.exchange, report);
    });
  }

  /** The last drift reports of a venue, newest first. */
  of(venue: string): DriftReport[] {
    return this.recent.get(venue) ?? [];
  }
}
